// Playing, stopping and mixing allocate nothing once the mixer exists: the voice pool and the bus
// table are fixed at creation; nor does playing skeleton events once their sounds are loaded. Its own
// executable, because it replaces global operator new.

#include <gtest/gtest.h>

#include <vector>

#include "counting_new.hpp"
#include "mf/scene/audio/audio_mixer.hpp"
#include "mf/scene/audio/event_sound_player.hpp"
#include "support/temp_dir.hpp"

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

TEST(AudioAllocation, PlayingEventSoundsAllocatesNothing) {
  // A rig folder with one 16-bit mono WAV of 0.1 s, written here.
  testing::TempDir dir("event_sound_allocation");
  std::string wav = "RIFF";
  auto u32 = [&](std::uint32_t v) { for (int i = 0; i < 4; ++i) wav.push_back(static_cast<char>(v >> (8 * i))); };
  auto u16 = [&](std::uint16_t v) { for (int i = 0; i < 2; ++i) wav.push_back(static_cast<char>(v >> (8 * i))); };
  const std::uint32_t frames = 4800;
  u32(36 + 2 * frames);
  wav += "WAVEfmt ";
  u32(16); u16(1); u16(1); u32(48000); u32(96000); u16(2); u16(16);
  wav += "data";
  u32(2 * frames);
  for (std::uint32_t i = 0; i < frames; ++i) u16(static_cast<std::uint16_t>(i % 2 ? 3000 : -3000));
  dir.write("audio/step.wav", wav);

  skel::SkeletonData data;
  data.events.resize(2);
  data.events[0].name = "footstep";
  data.events[0].audio = "audio/step.wav";
  data.events[1].name = "mark";  // no audio
  AudioMixer mixer({.max_voices = 16});  // a 4800-frame sound every 512 frames: about 10 at once
  ASSERT_TRUE(ensure_event_bus(mixer));
  auto player = EventSoundPlayer::load(data, dir.path().string(), mixer);
  ASSERT_TRUE(player) << player.error().to_string();
  const std::string payload;
  std::vector<float> out(2 * 512);

  const std::size_t before = testing::allocation_count();
  for (int frame = 0; frame < 1000; ++frame) {
    const skel::FiredEvent step{0, 0, 0, 0.5f, 0, 0.0f, &payload, 0.6f, frame % 2 ? -0.4f : 0.4f};
    const skel::FiredEvent mark{1, 0, 0, 0.5f, 0, 0.0f, &payload, 1.0f, 0.0f};
    auto voice = player->play(step, kEventSoundBus, mixer.frames_mixed() + 100);
    auto none = player->play(mark);
    ASSERT_TRUE(voice && none);
    ASSERT_TRUE(ensure_event_bus(mixer));  // exists: a lookup only
    mixer.mix(out.data(), 512);
  }
  EXPECT_EQ(testing::allocation_count() - before, 0u);
}

}  // namespace
}  // namespace mf::scene
