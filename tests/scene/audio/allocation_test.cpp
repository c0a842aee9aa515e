// Playing, stopping and mixing allocate nothing once the mixer exists: the voice pool and the bus
// table are fixed at creation. Its own executable, because it replaces global operator new.

#include <gtest/gtest.h>

#include <vector>

#include "counting_new.hpp"
#include "mf/scene/audio/audio_mixer.hpp"

namespace mf::scene {
namespace {

TEST(AudioAllocation, PlayStopAndMixAllocateNothing) {
  std::vector<float> samples(2 * 300, 0.1f);
  auto sound = Sound::from_samples(std::move(samples));
  ASSERT_TRUE(sound);
  AudioMixer mixer({.max_voices = 16});
  ASSERT_TRUE(mixer.create_bus("SFX", 0.8f));
  std::vector<float> out(2 * 256);

  const std::size_t before = testing::allocation_count();
  for (int frame = 0; frame < 1000; ++frame) {
    auto a = mixer.play(*sound, {.bus = "SFX", .volume = 0.5f, .pan = -0.3f});
    auto b = mixer.play(*sound, {.bus = "Master", .pan = 0.7f, .start_frame = mixer.frames_mixed() + 100});
    ASSERT_TRUE(a && b);
    mixer.stop(*a);
    ASSERT_TRUE(mixer.set_bus_volume("SFX", 0.5f + 0.0001f * frame));
    mixer.mix(out.data(), 256);
  }
  EXPECT_EQ(testing::allocation_count() - before, 0u);
}

}  // namespace
}  // namespace mf::scene
