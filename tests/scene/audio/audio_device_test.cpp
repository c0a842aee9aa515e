// The SDL device end to end through SDL's disk driver: the samples SDL is handed are written to a
// file, which the test reads back to find a click where the mixer placed it.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numbers>
#include <thread>
#include <vector>

#include "mf/scene/audio/audio_device.hpp"
#include "support/temp_dir.hpp"

namespace mf::scene {
namespace {

TEST(AudioDevice, DiskDriverRecordsAClickAtItsFrame) {
  testing::TempDir dir("audio_device");
  const std::string file = dir.file("out.raw");
  // SDL reads these when its audio subsystem starts.
  ::setenv("SDL_AUDIODRIVER", "disk", 1);
  ::setenv("SDL_DISKAUDIOFILE", file.c_str(), 1);

  AudioMixer mixer;
  auto click = Sound::from_samples({1, 1, 1, 1, 1, 1, 1, 1});  // 4 frames at full scale
  ASSERT_TRUE(click);
  constexpr std::int64_t kClickFrame = 4800;  // 0.1 s
  ASSERT_TRUE(mixer.play(*click, {.volume = 0.5f, .pan = 0.5f, .start_frame = kClickFrame}));

  int buffer = 0;
  {
    auto device = AudioDevice::open(mixer, {.buffer_frames = 512});
    ASSERT_TRUE(device) << device.error().to_string();
    EXPECT_STREQ(AudioDevice::driver_name(), "disk");
    EXPECT_EQ((*device)->sample_rate(), 48000);
    buffer = (*device)->buffer_frames();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while ((*device)->frames_played() < kClickFrame + 4 * buffer && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_GE((*device)->frames_played(), kClickFrame + 4 * buffer) << "the disk driver stalled";
  }  // closed: the file is complete

  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<float> samples(bytes.size() / sizeof(float));
  std::memcpy(samples.data(), bytes.data(), samples.size() * sizeof(float));
  ASSERT_GE(samples.size() / 2, static_cast<std::size_t>(kClickFrame + 4));

  std::int64_t first = -1;
  for (std::size_t f = 0; f < samples.size() / 2; ++f)
    if (samples[2 * f] != 0.0f || samples[2 * f + 1] != 0.0f) { first = static_cast<std::int64_t>(f); break; }
  ASSERT_GE(first, 0) << "no click in " << samples.size() / 2 << " frames";
  EXPECT_LE(std::llabs(first - kClickFrame), buffer) << "click at frame " << first;

  const double theta = 1.5 * std::numbers::pi / 4;  // pan 0.5
  for (std::int64_t f = first; f < first + 4; ++f) {
    EXPECT_NEAR(samples[2 * static_cast<std::size_t>(f)], 0.5 * std::cos(theta), 1e-6) << "frame " << f;
    EXPECT_NEAR(samples[2 * static_cast<std::size_t>(f) + 1], 0.5 * std::sin(theta), 1e-6) << "frame " << f;
  }
  for (std::int64_t f = first + 4; f < first + 100; ++f) EXPECT_EQ(samples[2 * static_cast<std::size_t>(f)], 0.0f);
}

TEST(AudioDevice, ABadBufferSizeIsAnError) {
  AudioMixer mixer;
  auto device = AudioDevice::open(mixer, {.buffer_frames = 0});
  ASSERT_FALSE(device);
  EXPECT_NE(device.error().message.find("0 frames"), std::string::npos) << device.error().message;
}

}  // namespace
}  // namespace mf::scene
