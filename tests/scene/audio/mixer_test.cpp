// The mixer's arithmetic: volume, constant-power pan, buses and Master, clamping, sample-exact start
// frames, voices that end, stop, and the fixed voice pool.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "mf/scene/audio/audio_mixer.hpp"

namespace mf::scene {
namespace {

constexpr float kHalfSqrt2 = static_cast<float>(std::numbers::sqrt2 / 2);

Sound constant(float left, float right, int frames) {
  std::vector<float> samples;
  for (int i = 0; i < frames; ++i) { samples.push_back(left); samples.push_back(right); }
  return *Sound::from_samples(std::move(samples));
}

// Frame i has left = i + 1, right = −(i + 1), scaled by 1/1000.
Sound ramp(int frames) {
  std::vector<float> samples;
  for (int i = 0; i < frames; ++i) { samples.push_back((i + 1) / 1000.0f); samples.push_back(-(i + 1) / 1000.0f); }
  return *Sound::from_samples(std::move(samples));
}

std::vector<float> mix(AudioMixer& mixer, int frames) {
  std::vector<float> out(static_cast<std::size_t>(frames) * 2, 99.0f);
  mixer.mix(out.data(), frames);
  return out;
}

TEST(AudioMixer, VolumeAndConstantPowerPan) {
  const Sound one = constant(1, 1, 8);
  struct Case { float pan, left, right; };
  for (const Case c : {Case{-1, 0.5f, 0.0f}, Case{0, 0.5f * kHalfSqrt2, 0.5f * kHalfSqrt2}, Case{1, 0.0f, 0.5f},
                       Case{0.5f, 0.5f * std::cos(0.375f * std::numbers::pi_v<float>),
                            0.5f * std::sin(0.375f * std::numbers::pi_v<float>)}}) {
    AudioMixer mixer;
    ASSERT_TRUE(mixer.play(one, {.volume = 0.5f, .pan = c.pan}));
    const auto out = mix(mixer, 4);
    for (int i = 0; i < 4; ++i) {
      EXPECT_NEAR(out[2 * i], c.left, 1e-6f) << "pan " << c.pan;
      EXPECT_NEAR(out[2 * i + 1], c.right, 1e-6f) << "pan " << c.pan;
    }
    // Constant power: the gains' squares sum to the volume's.
    EXPECT_NEAR(out[0] * out[0] + out[1] * out[1], 0.25f, 1e-6f);
  }
}

TEST(AudioMixer, PanOutsideTheRangeIsClamped) {
  const Sound one = constant(1, 1, 4);
  AudioMixer mixer;
  ASSERT_TRUE(mixer.play(one, {.pan = -3}));
  const auto out = mix(mixer, 1);
  EXPECT_NEAR(out[0], 1.0f, 1e-6f);
  EXPECT_NEAR(out[1], 0.0f, 1e-6f);
}

TEST(AudioMixer, NonFiniteVolumeAndPanDoNotPoisonTheMix) {
  const Sound one = constant(1, 1, 4);
  AudioMixer mixer;
  ASSERT_TRUE(mixer.play(one, {.volume = std::nanf(""), .pan = 0}));
  ASSERT_TRUE(mixer.play(one, {.volume = INFINITY, .pan = 0}));
  ASSERT_TRUE(mixer.play(one, {.volume = 0.5f, .pan = std::nanf("")}));  // centre
  const auto out = mix(mixer, 2);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(out[static_cast<std::size_t>(i)], 0.5f * kHalfSqrt2, 1e-6f) << i;
}

TEST(AudioMixer, BusVolumeMuteAndMaster) {
  const Sound one = constant(0.5f, 0.5f, 64);
  AudioMixer mixer;
  ASSERT_TRUE(mixer.create_bus("SFX", 0.5f));
  EXPECT_TRUE(mixer.has_bus("SFX"));
  ASSERT_TRUE(mixer.play(one, {.bus = "SFX", .pan = -1}));
  EXPECT_NEAR(mix(mixer, 1)[0], 0.25f, 1e-6f);

  ASSERT_TRUE(mixer.set_bus_volume("Master", 0.5f));
  EXPECT_NEAR(mix(mixer, 1)[0], 0.125f, 1e-6f);
  ASSERT_TRUE(mixer.set_bus_mute("SFX", true));
  EXPECT_EQ(mix(mixer, 1)[0], 0.0f);
  ASSERT_TRUE(mixer.set_bus_mute("SFX", false));
  ASSERT_TRUE(mixer.set_bus_mute("Master", true));
  EXPECT_EQ(mix(mixer, 1)[0], 0.0f);
  ASSERT_TRUE(mixer.set_bus_mute("Master", false));
  EXPECT_NEAR(mix(mixer, 1)[0], 0.125f, 1e-6f);

  // A voice on Master itself gets Master's gain once.
  ASSERT_TRUE(mixer.play(one, {.pan = 1}));
  EXPECT_NEAR(mix(mixer, 1)[1], 0.25f, 1e-6f);
}

TEST(AudioMixer, BusErrors) {
  AudioMixer mixer({.max_buses = 2});
  EXPECT_FALSE(mixer.create_bus("Master"));
  EXPECT_FALSE(mixer.create_bus(""));
  EXPECT_FALSE(mixer.create_bus("Music", -1));
  ASSERT_TRUE(mixer.create_bus("Music"));
  auto full = mixer.create_bus("SFX");
  ASSERT_FALSE(full);
  EXPECT_NE(full.error().message.find("room for 2 buses"), std::string::npos) << full.error().message;
  auto unknown = mixer.set_bus_volume("Voice", 1);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("\"Voice\""), std::string::npos);
  const Sound one = constant(1, 1, 4);
  auto play = mixer.play(one, {.bus = "Voice"});
  ASSERT_FALSE(play);
  EXPECT_NE(play.error().message.find("no such bus"), std::string::npos) << play.error().message;
  auto slow = Sound::from_samples({1, 1}, 44100);
  ASSERT_TRUE(slow);
  auto wrong_rate = mixer.play(*slow);
  ASSERT_FALSE(wrong_rate);
  EXPECT_NE(wrong_rate.error().message.find("44100 Hz"), std::string::npos) << wrong_rate.error().message;
}

TEST(AudioMixer, SumsAreClampedToPlusMinusOne) {
  const Sound loud = constant(0.9f, -0.9f, 8);
  AudioMixer mixer;
  ASSERT_TRUE(mixer.play(loud, {.pan = -1}));
  ASSERT_TRUE(mixer.play(loud, {.pan = -1}));
  ASSERT_TRUE(mixer.play(loud, {.pan = 1}));
  ASSERT_TRUE(mixer.play(loud, {.pan = 1}));
  const auto out = mix(mixer, 2);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], -1.0f);
}

TEST(AudioMixer, StartFrameIsExactToTheSample) {
  const Sound r = ramp(20);
  AudioMixer mixer;
  ASSERT_TRUE(mixer.play(r, {.pan = -1, .start_frame = 37}));
  std::vector<float> all;
  for (int chunk = 0; chunk < 7; ++chunk) {  // chunks of 10 frames: the start falls inside one
    const auto out = mix(mixer, 10);
    all.insert(all.end(), out.begin(), out.end());
  }
  EXPECT_EQ(mixer.frames_mixed(), 70);
  for (int f = 0; f < 70; ++f) {
    const float expected = f >= 37 && f < 57 ? (f - 37 + 1) / 1000.0f : 0.0f;
    EXPECT_NEAR(all[2 * static_cast<std::size_t>(f)], expected, 1e-7f) << "frame " << f;
    EXPECT_NEAR(all[2 * static_cast<std::size_t>(f) + 1], 0.0f, 1e-7f) << "frame " << f;
  }
}

TEST(AudioMixer, AStartFrameAlreadyMixedStartsAtTheNextFrame) {
  const Sound r = ramp(4);
  AudioMixer mixer;
  mix(mixer, 100);
  ASSERT_TRUE(mixer.play(r, {.pan = -1, .start_frame = 10}));
  const auto out = mix(mixer, 4);
  EXPECT_NEAR(out[0], 0.001f, 1e-7f);
  EXPECT_NEAR(out[6], 0.004f, 1e-7f);
}

TEST(AudioMixer, AVoiceEndsAtItsSoundsEnd) {
  const Sound r = ramp(10);
  AudioMixer mixer;
  auto voice = mixer.play(r, {.pan = -1});
  ASSERT_TRUE(voice);
  EXPECT_TRUE(mixer.is_playing(*voice));
  EXPECT_EQ(mixer.active_voices(), 1);
  auto out = mix(mixer, 6);
  EXPECT_TRUE(mixer.is_playing(*voice));
  out = mix(mixer, 8);
  EXPECT_NEAR(out[2 * 3], 0.010f, 1e-7f);  // the sound's last frame
  for (int f = 4; f < 8; ++f) EXPECT_EQ(out[2 * static_cast<std::size_t>(f)], 0.0f) << "frame " << f;
  EXPECT_FALSE(mixer.is_playing(*voice));
  EXPECT_EQ(mixer.active_voices(), 0);
}

TEST(AudioMixer, StopEndsOnlyItsOwnVoice) {
  const Sound one = constant(0.25f, 0.25f, 1000);
  AudioMixer mixer({.max_voices = 1});
  auto first = mixer.play(one, {.pan = -1});
  ASSERT_TRUE(first);
  EXPECT_NEAR(mix(mixer, 4)[0], 0.25f, 1e-7f);
  mixer.stop(*first);
  EXPECT_FALSE(mixer.is_playing(*first));
  EXPECT_EQ(mix(mixer, 4)[0], 0.0f);
  auto second = mixer.play(one, {.pan = -1});  // the same slot, a new generation
  ASSERT_TRUE(second);
  EXPECT_EQ(second->slot, first->slot);
  EXPECT_NE(second->generation, first->generation);
  mixer.stop(*first);   // stale: nothing happens
  mixer.stop(VoiceId{});  // never a voice
  EXPECT_TRUE(mixer.is_playing(*second));
  EXPECT_NEAR(mix(mixer, 4)[0], 0.25f, 1e-7f);
  mixer.stop_all();
  EXPECT_EQ(mixer.active_voices(), 0);
}

TEST(AudioMixer, AFullVoicePoolIsAnError) {
  const Sound r = ramp(8);
  AudioMixer mixer({.max_voices = 4});
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(mixer.play(r));
  auto fifth = mixer.play(r);
  ASSERT_FALSE(fifth);
  EXPECT_NE(fifth.error().message.find("all 4 voices"), std::string::npos) << fifth.error().message;
  mix(mixer, 8);  // every voice ends
  EXPECT_EQ(mixer.active_voices(), 0);
  EXPECT_TRUE(mixer.play(r));
}

TEST(AudioMixer, AnEmptySoundEndsAtOnce) {
  const Sound empty;
  AudioMixer mixer;
  auto voice = mixer.play(empty);
  ASSERT_TRUE(voice);
  EXPECT_EQ(mix(mixer, 2)[0], 0.0f);
  EXPECT_FALSE(mixer.is_playing(*voice));
}

}  // namespace
}  // namespace mf::scene
