// make_example_audio <out_dir>: synthesises the mannequin example's sounds (examples/mannequin/audio)
// and writes them as 16-bit PCM mono WAV files at 44100 Hz.
//
// footstep.wav: a heel's thud and the scuff of the sole. The thud is white noise through two
// one-pole low-passes at 500 Hz; the scuff is the noise above about 3 kHz (the noise less its own
// low-pass), much shorter. Both rise linearly over 2 ms; the thud then decays exponentially (time
// constant 30 ms) and the scuff faster (6 ms), under a linear fade that reaches silence 120 ms after
// the attack. The sum is scaled to a peak of 0.8.
//
// The noise is a fixed xorshift sequence and only +, -, * and / touch the samples (the filter and
// decay constants are written out, not computed with exp), with -ffp-contract=off, so the bytes are
// the same on every run and machine.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace mf::tools {
namespace {

constexpr int kRate = 44100;

// Uniform noise in [−1, 1) from a 32-bit xorshift generator.
class Noise {
 public:
  explicit Noise(std::uint32_t seed) : state_(seed) {}
  double next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return static_cast<double>(state_ >> 8) / 8388608.0 - 1.0;  // 24 bits over [0, 2) − 1
  }

 private:
  std::uint32_t state_;
};

// y += a · (x − y): a one-pole low-pass; a = 1 − exp(−2π·fc / rate), written out.
struct OnePole {
  double a;
  double y = 0;
  double operator()(double x) { return y += a * (x - y); }
};

std::vector<double> footstep() {
  const int attack = kRate * 2 / 1000;   // 2 ms
  const int decay = kRate * 120 / 1000;  // 120 ms to silence
  const double thud_decay = 0.9992444276899072;   // exp(−1 / (0.030 s · 44100 Hz)) per sample
  const double scuff_decay = 0.9962278430328397;  // exp(−1 / (0.006 s · 44100 Hz))
  OnePole thud1{0.0687597029826057}, thud2{0.0687597029826057};  // 500 Hz
  OnePole scuff_low{0.34781536323142626};                          // 3000 Hz
  Noise noise(0x5eed1234u);

  std::vector<double> out(static_cast<std::size_t>(attack + decay));
  double thud_env = 1.0, scuff_env = 1.0;
  for (int i = 0; i < attack + decay; ++i) {
    const double x = noise.next();
    const double thud = thud2(thud1(x));
    const double scuff = x - scuff_low(x);
    double rise = 1.0, fade = 1.0;
    if (i < attack) {
      rise = static_cast<double>(i + 1) / attack;
    } else {
      thud_env *= thud_decay;
      scuff_env *= scuff_decay;
      fade = static_cast<double>(attack + decay - 1 - i) / (decay - 1);
    }
    // The low-pass leaves the thud about 6× quieter than the raw noise; the scuff stays a touch.
    out[static_cast<std::size_t>(i)] = rise * fade * (6.0 * thud * thud_env + 0.25 * scuff * scuff_env);
  }
  double peak = 0;
  for (double s : out) peak = std::max(peak, s < 0 ? -s : s);
  for (double& s : out) s = s * 0.8 / peak;
  return out;
}

bool write_wav(const std::filesystem::path& path, const std::vector<double>& samples) {
  std::string bytes = "RIFF";
  auto u32 = [&](std::uint32_t v) { for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>(v >> (8 * i))); };
  auto u16 = [&](std::uint16_t v) { for (int i = 0; i < 2; ++i) bytes.push_back(static_cast<char>(v >> (8 * i))); };
  const auto data = static_cast<std::uint32_t>(samples.size() * 2);
  u32(36 + data);
  bytes += "WAVEfmt ";
  u32(16);
  u16(1);  // PCM
  u16(1);  // mono
  u32(kRate);
  u32(kRate * 2);  // bytes per second
  u16(2);          // bytes per frame
  u16(16);
  bytes += "data";
  u32(data);
  for (double s : samples) u16(static_cast<std::uint16_t>(static_cast<std::int16_t>(std::lround(s * 32767.0))));
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::fprintf(stderr, "make_example_audio: cannot write %s\n", path.string().c_str());
    return false;
  }
  return true;
}

}  // namespace
}  // namespace mf::tools

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_example_audio <out_dir>\n");
    return 2;
  }
  const std::filesystem::path out = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) {
    std::fprintf(stderr, "make_example_audio: cannot create %s: %s\n", out.string().c_str(), ec.message().c_str());
    return 1;
  }
  return mf::tools::write_wav(out / "footstep.wav", mf::tools::footstep()) ? 0 : 1;
}
