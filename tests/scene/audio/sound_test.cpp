// Sounds: code-made ones, .wav through SDL (files written by the test), .ogg through libvorbisfile
// (fixtures made by scripts/make_test_ogg.py), the errors of both, and the linear resampler.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "audio_signals.hpp"
#include "mf/scene/audio/resample.hpp"
#include "mf/scene/audio/sound.hpp"
#include "support/temp_dir.hpp"

namespace mf::scene {
namespace {

const std::string kAudioDir = std::string(MF_TEST_DATA_DIR) + "/audio/";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::uint8_t> as_bytes(const std::string& s) { return {s.begin(), s.end()}; }

// The pages of an Ogg file, each whole (27-byte header, segment table, body).
std::vector<std::string> ogg_pages(const std::string& file) {
  std::vector<std::string> pages;
  std::size_t at = 0;
  while (at + 27 <= file.size()) {
    const std::size_t segments = static_cast<unsigned char>(file[at + 26]);
    std::size_t length = 27 + segments;
    for (std::size_t i = 0; i < segments; ++i) length += static_cast<unsigned char>(file[at + 27 + i]);
    pages.push_back(file.substr(at, length));
    at += length;
  }
  return pages;
}

float peak(std::span<const float> samples) {
  float p = 0;
  for (float s : samples) p = std::max(p, std::fabs(s));
  return p;
}

TEST(Sound, FromSamplesKeepsInterleavedStereo) {
  auto sound = Sound::from_samples({0.1f, 0.2f, 0.3f, 0.4f}, 48000);
  ASSERT_TRUE(sound) << sound.error().to_string();
  EXPECT_EQ(sound->frames(), 2u);
  EXPECT_EQ(sound->sample_rate(), 48000);
  EXPECT_FLOAT_EQ(sound->samples()[3], 0.4f);
  auto mono = Sound::from_mono(std::vector<float>{0.5f, -0.5f});
  ASSERT_TRUE(mono);
  EXPECT_EQ(mono->samples().size(), 4u);
  EXPECT_FLOAT_EQ(mono->samples()[2], -0.5f);
  EXPECT_FLOAT_EQ(mono->samples()[3], -0.5f);
}

TEST(Sound, NonFiniteSamplesBecomeSilence) {
  auto sound = Sound::from_samples({std::nanf(""), 0.5f, INFINITY, -INFINITY});
  ASSERT_TRUE(sound);
  EXPECT_EQ(sound->samples()[0], 0.0f);
  EXPECT_EQ(sound->samples()[1], 0.5f);
  EXPECT_EQ(sound->samples()[2], 0.0f);
  EXPECT_EQ(sound->samples()[3], 0.0f);
}

TEST(Sound, FromSamplesRefusesOddCountsAndBadRates) {
  auto odd = Sound::from_samples({0.1f, 0.2f, 0.3f});
  ASSERT_FALSE(odd);
  EXPECT_NE(odd.error().message.find("even number"), std::string::npos) << odd.error().message;
  auto slow = Sound::from_samples({0.0f, 0.0f}, 10);
  ASSERT_FALSE(slow);
  EXPECT_NE(slow.error().message.find("10 Hz"), std::string::npos) << slow.error().message;
}

TEST(Resample, KeepsDurationAndEndpoints) {
  std::vector<float> ramp;
  for (int i = 0; i < 100; ++i) { ramp.push_back(static_cast<float>(i)); ramp.push_back(-static_cast<float>(i)); }
  const auto up = resample_stereo_linear(ramp, 22050, 48000);
  EXPECT_EQ(up.size() / 2, 218u);  // round(100 × 48000 / 22050) = round(217.69)
  EXPECT_FLOAT_EQ(up[0], 0.0f);
  // Output frame 10 reads input position 10 × 22050 / 48000 = 4.59375.
  EXPECT_NEAR(up[20], 4.59375f, 1e-5f);
  EXPECT_NEAR(up[21], -4.59375f, 1e-5f);
  const auto same = resample_stereo_linear(ramp, 48000, 48000);
  EXPECT_EQ(same, ramp);
}

TEST(LoadSound, WavAt22050MonoBecomes48000StereoWithTheSameDurationAndPitch) {
  testing::TempDir dir("audio");
  dir.write("tone.wav", testing::wav_bytes_s16(testing::sine(440, 22050, 11025), 1, 22050));
  auto sound = load_sound(dir.file("tone.wav"), 48000);
  ASSERT_TRUE(sound) << sound.error().to_string();
  EXPECT_EQ(sound->sample_rate(), 48000);
  EXPECT_EQ(sound->frames(), 24000u);  // 0.5 s
  EXPECT_NEAR(testing::tone_frequency(sound->samples(), 0, 48000), 440.0, 440.0 * 0.002);
  for (std::size_t i = 0; i < sound->samples().size(); i += 2)
    ASSERT_EQ(sound->samples()[i], sound->samples()[i + 1]) << "mono goes to both channels, frame " << i / 2;
  EXPECT_NEAR(peak(sound->samples()), 0.5f, 0.01f);
}

TEST(LoadSound, WavAt44100StereoKeepsItsChannels) {
  testing::TempDir dir("audio");
  const auto tone = testing::sine(1000, 44100, 11025);
  std::vector<float> stereo;
  for (float s : tone) { stereo.push_back(s); stereo.push_back(-s); }
  dir.write("stereo.wav", testing::wav_bytes_s16(stereo, 2, 44100));
  auto sound = load_sound(dir.file("stereo.wav"));
  ASSERT_TRUE(sound) << sound.error().to_string();
  EXPECT_EQ(sound->frames(), 12000u);  // 0.25 s at 48000
  EXPECT_NEAR(testing::tone_frequency(sound->samples(), 0, 48000), 1000.0, 1000.0 * 0.002);
  EXPECT_NEAR(testing::tone_frequency(sound->samples(), 1, 48000), 1000.0, 1000.0 * 0.002);
  for (std::size_t i = 0; i < sound->samples().size(); i += 2)
    ASSERT_NEAR(sound->samples()[i], -sound->samples()[i + 1], 1e-4f) << "frame " << i / 2;
}

TEST(LoadSound, OggAt22050MonoBecomes48000StereoWithTheSameDurationAndPitch) {
  auto sound = load_sound(kAudioDir + "tone_440hz_22050_mono.ogg", 48000);
  ASSERT_TRUE(sound) << sound.error().to_string();
  EXPECT_EQ(sound->sample_rate(), 48000);
  EXPECT_NEAR(sound->seconds(), 0.5, 0.5 * 0.01);
  EXPECT_NEAR(testing::tone_frequency(sound->samples(), 0, 48000), 440.0, 440.0 * 0.01);
  for (std::size_t i = 0; i < sound->samples().size(); i += 2) ASSERT_EQ(sound->samples()[i], sound->samples()[i + 1]);
  EXPECT_NEAR(peak(sound->samples()), 0.5f, 0.1f);
}

TEST(LoadSound, OggAt44100StereoKeepsItsChannels) {
  auto sound = load_sound(kAudioDir + "tone_1000hz_44100_stereo.ogg");
  ASSERT_TRUE(sound) << sound.error().to_string();
  EXPECT_NEAR(sound->seconds(), 0.25, 0.25 * 0.01);
  EXPECT_NEAR(testing::tone_frequency(sound->samples(), 0, 48000), 1000.0, 1000.0 * 0.01);
  // The right channel is the left one inverted (lossy: compare the sums' energy).
  double sum = 0, left = 0;
  for (std::size_t i = 0; i < sound->samples().size(); i += 2) {
    sum += std::pow(sound->samples()[i] + sound->samples()[i + 1], 2);
    left += std::pow(sound->samples()[i], 2);
  }
  EXPECT_LT(sum, left * 0.01);
}

TEST(LoadSound, OggChainedLinksDecodeInOrder) {
  // 0.5 s of 440 Hz then 0.25 s of 880 Hz, both mono at 22050 Hz, as two links (serials differ).
  const std::string chained =
      read_file(kAudioDir + "tone_440hz_22050_mono.ogg") + read_file(kAudioDir + "tone_880hz_22050_mono_serial2.ogg");
  auto sound = decode_sound(as_bytes(chained), "chained.ogg", 48000);
  ASSERT_TRUE(sound) << sound.error().to_string();
  EXPECT_NEAR(sound->seconds(), 0.75, 2.0 / 22050);
  const auto samples = sound->samples();
  // The middle of each link, away from the seam and the edges.
  EXPECT_NEAR(testing::tone_frequency(samples.subspan(2 * 4800, 2 * 14400), 0, 48000), 440.0, 440.0 * 0.01);
  EXPECT_NEAR(testing::tone_frequency(samples.subspan(2 * 26400, 2 * 7200), 0, 48000), 880.0, 880.0 * 0.01);
}

TEST(LoadSound, OggErrorsNameTheFileAndWhatIsWrong) {
  auto three = load_sound(kAudioDir + "tone_440hz_22050_3ch.ogg");
  ASSERT_FALSE(three);
  EXPECT_EQ(three.error().file, kAudioDir + "tone_440hz_22050_3ch.ogg");
  EXPECT_NE(three.error().message.find("has 3 channels; mono and stereo are supported"), std::string::npos)
      << three.error().message;

  // A chained file whose second link has another rate.
  const std::string mixed =
      read_file(kAudioDir + "tone_440hz_22050_mono.ogg") + read_file(kAudioDir + "tone_1000hz_44100_mono_serial3.ogg");
  auto rates = decode_sound(as_bytes(mixed), "mixed.ogg");
  ASSERT_FALSE(rates);
  EXPECT_EQ(rates.error().file, "mixed.ogg");
  EXPECT_NE(rates.error().message.find("a link of the chained stream has 1 channel at 44100 Hz after 1 channel at 22050 Hz"),
            std::string::npos)
      << rates.error().message;

  // A page missing in the middle of the audio.
  const auto pages = ogg_pages(read_file(kAudioDir + "tone_440hz_22050_mono_paged.ogg"));
  ASSERT_GT(pages.size(), 8u);
  std::string gap;
  for (std::size_t i = 0; i < pages.size(); ++i)
    if (i != 5) gap += pages[i];
  auto holed = decode_sound(as_bytes(gap), "gap.ogg");
  ASSERT_FALSE(holed);
  EXPECT_EQ(holed.error().file, "gap.ogg");
  EXPECT_NE(holed.error().message.find("corrupt audio data: a gap in the stream"), std::string::npos)
      << holed.error().message;
  // The same file whole decodes.
  std::string whole;
  for (const auto& page : pages) whole += page;
  EXPECT_TRUE(decode_sound(as_bytes(whole), "whole.ogg"));

  // Only the headers: no audio.
  auto headers = decode_sound(as_bytes(pages[0] + pages[1]), "headers.ogg");
  ASSERT_FALSE(headers);
  EXPECT_NE(headers.error().message.find("holds no audio"), std::string::npos) << headers.error().message;
}

// Malformed files that crashed the former decoder (Debian's stb_vorbis) inside its open call.
TEST(LoadSound, OggInputsThatCrashedStbVorbisGiveCleanErrors) {
  const std::string dir = std::string(MF_TEST_DATA_DIR) + "/../../fuzz/regressions/sound_loader";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("stb_vorbis_", 0) != 0) continue;
    ++count;
    auto sound = load_sound(entry.path().string());
    ASSERT_FALSE(sound) << entry.path();
    EXPECT_EQ(sound.error().file, entry.path().string());
    EXPECT_NE(sound.error().message.find("not an Ogg Vorbis file libvorbisfile can decode"), std::string::npos)
        << sound.error().message;
  }
  EXPECT_EQ(count, 3);
}

TEST(LoadSound, ErrorsNameTheFileAndWhatIsWrong) {
  testing::TempDir dir("audio");
  auto missing = load_sound(dir.file("nope.ogg"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().file, dir.file("nope.ogg"));
  EXPECT_NE(missing.error().message.find("cannot open"), std::string::npos) << missing.error().message;

  dir.write("text.wav", "this is not audio at all");
  auto garbage = load_sound(dir.file("text.wav"));
  ASSERT_FALSE(garbage);
  EXPECT_EQ(garbage.error().file, dir.file("text.wav"));
  EXPECT_NE(garbage.error().message.find("unsupported format"), std::string::npos) << garbage.error().message;

  dir.write("empty.ogg", "");
  auto empty = load_sound(dir.file("empty.ogg"));
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("empty"), std::string::npos) << empty.error().message;

  std::ifstream in(kAudioDir + "tone_440hz_22050_mono.ogg", std::ios::binary);
  const std::string ogg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(ogg.size(), 200u);
  dir.write("cut.ogg", ogg.substr(0, 100));
  auto cut = load_sound(dir.file("cut.ogg"));
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().file, dir.file("cut.ogg"));
  EXPECT_NE(cut.error().message.find("Ogg Vorbis"), std::string::npos) << cut.error().message;

  std::string scrambled = ogg;
  for (std::size_t i = 60; i < scrambled.size(); i += 7) scrambled[i] = static_cast<char>(scrambled[i] ^ 0x5a);
  dir.write("scrambled.ogg", scrambled);
  auto bad = load_sound(dir.file("scrambled.ogg"));
  ASSERT_FALSE(bad);
  EXPECT_FALSE(bad.error().message.empty());

  const std::string wav = testing::wav_bytes_s16(testing::sine(440, 22050, 1000), 1, 22050);
  dir.write("cut.wav", wav.substr(0, 30));
  auto cut_wav = load_sound(dir.file("cut.wav"));
  ASSERT_FALSE(cut_wav);
  EXPECT_EQ(cut_wav.error().file, dir.file("cut.wav"));
  EXPECT_NE(cut_wav.error().message.find("truncated"), std::string::npos) << cut_wav.error().message;

  // A data chunk that claims far more than the file holds is refused before anything is allocated.
  std::string huge = wav.substr(0, 44 + 64);
  huge[40] = huge[41] = huge[42] = huge[43] = '\xff';
  dir.write("huge.wav", huge);
  const std::vector<std::uint8_t> headerless(wav.begin() + 8, wav.end());  // starts at "WAVE"
  auto no_riff = decode_wav(headerless, "headerless.wav");
  ASSERT_FALSE(no_riff);
  EXPECT_NE(no_riff.error().message.find("RIFF"), std::string::npos) << no_riff.error().message;
  auto claimed = load_sound(dir.file("huge.wav"));
  ASSERT_FALSE(claimed);
  EXPECT_NE(claimed.error().message.find("chunk \"data\" claims 4294967295 bytes but 64 follow it"), std::string::npos)
      << claimed.error().message;
}

TEST(LoadSound, RefusesRatesOutsideTheLimits) {
  const std::string wav = testing::wav_bytes_s16(testing::sine(440, 500, 100), 1, 500);
  const std::vector<std::uint8_t> bytes(wav.begin(), wav.end());
  auto sound = decode_sound(bytes, "slow.wav");
  ASSERT_FALSE(sound);
  EXPECT_EQ(sound.error().file, "slow.wav");
  EXPECT_NE(sound.error().message.find("500 Hz"), std::string::npos) << sound.error().message;
}

}  // namespace
}  // namespace mf::scene
