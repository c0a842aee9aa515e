// EventSoundPlayer: one decode per distinct audio path at the mixer's rate, events without audio,
// the key's volume and balance as the voice's volume and pan, the default "SFX" bus and its helper,
// errors that name the event and the file, and the voices stopped with the player.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "audio_signals.hpp"
#include "mf/scene/audio/event_sound_player.hpp"
#include "support/temp_dir.hpp"

namespace mf::scene {
namespace {

skel::EventData event(std::string name, std::string audio) {
  skel::EventData e;
  e.name = std::move(name);
  e.audio = std::move(audio);
  return e;
}

skel::FiredEvent fired(int index, float volume = 1, float balance = 0) {
  static const std::string empty;
  return skel::FiredEvent{index, 0, 0, 0.0f, 0, 0.0f, &empty, volume, balance};
}

// A rig folder with `sounds/step.wav` (0.25 s of a constant 0.5 at 22050 Hz, mono) and
// `sounds/long.wav` (1 s of it at 48000 Hz).
struct RigFolder {
  testing::TempDir dir{"event_sounds"};
  RigFolder() {
    std::filesystem::create_directories(dir.file("sounds"));
    dir.write("sounds/step.wav", testing::wav_bytes_s16(std::vector<float>(5512, 0.5f), 1, 22050));
    dir.write("sounds/long.wav", testing::wav_bytes_s16(std::vector<float>(48000, 0.5f), 1, 48000));
  }
};

TEST(EventSoundPlayer, DecodesEachDistinctPathOnceAtTheMixerRate) {
  RigFolder rig;
  skel::SkeletonData data;
  data.events = {event("step", "sounds/step.wav"), event("silent", ""), event("step_again", "sounds/step.wav"),
                 event("long", "sounds/long.wav")};
  AudioMixer mixer({.sample_rate = 48000});
  auto player = EventSoundPlayer::load(data, rig.dir.path().string(), mixer);
  ASSERT_TRUE(player) << player.error().to_string();
  EXPECT_EQ(player->sound_count(), 2u);
  ASSERT_NE(player->sound(0), nullptr);
  EXPECT_EQ(player->sound(0), player->sound(2));
  EXPECT_EQ(player->sound(1), nullptr);
  EXPECT_EQ(player->sound(4), nullptr);
  EXPECT_EQ(player->sound(-1), nullptr);
  EXPECT_EQ(player->sound(0)->sample_rate(), 48000);
  EXPECT_EQ(player->sound(0)->frames(), 11999u);  // round(5512 × 48000 / 22050) = round(11999.35)
  EXPECT_EQ(player->sound(3)->frames(), 48000u);
}

TEST(EventSoundPlayer, PlaysWithTheKeysVolumeAndBalanceAsPanAtTheStartFrame) {
  RigFolder rig;
  skel::SkeletonData data;
  data.events = {event("long", "sounds/long.wav")};
  AudioMixer mixer({.sample_rate = 48000});
  ASSERT_TRUE(ensure_event_bus(mixer));
  auto player = EventSoundPlayer::load(data, rig.dir.path().string(), mixer);
  ASSERT_TRUE(player) << player.error().to_string();
  for (const float balance : {-1.0f, -0.5f, 0.0f, 0.25f, 1.0f}) {
    auto voice = player->play(fired(0, 0.6f, balance), kEventSoundBus, mixer.frames_mixed() + 10);
    ASSERT_TRUE(voice) << voice.error().to_string();
    std::vector<float> out(2 * 64);
    mixer.mix(out.data(), 64);
    const double theta = (balance + 1.0) * std::numbers::pi / 4.0;
    for (int i = 0; i < 10; ++i) {
      EXPECT_EQ(out[2 * i], 0.0f) << "before the start frame, balance " << balance;
      EXPECT_EQ(out[2 * i + 1], 0.0f);
    }
    // 0.5 in the file (16-bit: within 1/32767), × volume 0.6 × the constant-power gains.
    for (int i = 10; i < 64; ++i) {
      EXPECT_NEAR(out[2 * i], 0.5 * 0.6 * std::cos(theta), 1e-4) << "balance " << balance;
      EXPECT_NEAR(out[2 * i + 1], 0.5 * 0.6 * std::sin(theta), 1e-4) << "balance " << balance;
    }
    mixer.stop(*voice);
  }
}

TEST(EventSoundPlayer, AnEventWithoutAudioPlaysNothing) {
  RigFolder rig;
  skel::SkeletonData data;
  data.events = {event("hit", "")};
  AudioMixer mixer;
  auto player = EventSoundPlayer::load(data, rig.dir.path().string(), mixer);
  ASSERT_TRUE(player);
  EXPECT_EQ(player->sound_count(), 0u);
  auto voice = player->play(fired(0));  // no "SFX" bus either: nothing is looked up
  ASSERT_TRUE(voice) << voice.error().to_string();
  EXPECT_EQ(*voice, VoiceId{});
  EXPECT_EQ(mixer.active_voices(), 0);
}

TEST(EventSoundPlayer, EnsureEventBusCreatesSfxOnceAndKeepsAnExistingOne) {
  AudioMixer mixer({.max_buses = 2});
  EXPECT_FALSE(mixer.has_bus("SFX"));
  ASSERT_TRUE(ensure_event_bus(mixer, kEventSoundBus, 0.7f));
  EXPECT_TRUE(mixer.has_bus("SFX"));
  ASSERT_TRUE(mixer.set_bus_volume("SFX", 0.3f));
  ASSERT_TRUE(ensure_event_bus(mixer));  // exists: unchanged, no error
  // The volume stayed 0.3: a full-scale voice on SFX mixes at 0.3 × √½.
  const Sound one = *Sound::from_samples(std::vector<float>(8, 1.0f));
  ASSERT_TRUE(mixer.play(one, {.bus = "SFX"}));
  std::vector<float> out(2);
  mixer.mix(out.data(), 1);
  EXPECT_NEAR(out[0], 0.3f * std::numbers::sqrt2_v<float> / 2, 1e-6f);
  // A full table: the error says so.
  auto full = ensure_event_bus(mixer, "Voices");
  ASSERT_FALSE(full);
  EXPECT_NE(full.error().message.find("room for 2 buses"), std::string::npos) << full.error().message;
}

TEST(EventSoundPlayer, ErrorsNameTheEventAndTheFile) {
  RigFolder rig;
  AudioMixer mixer;
  const std::string folder = rig.dir.path().string();

  skel::SkeletonData missing;
  missing.events = {event("step", "sounds/step.wav"), event("land", "sounds/land.ogg")};
  auto a = EventSoundPlayer::load(missing, folder, mixer);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().file, (rig.dir.path() / "sounds/land.ogg").string());
  EXPECT_NE(a.error().message.find("event \"land\": cannot open"), std::string::npos) << a.error().message;

  rig.dir.write("sounds/bad.wav", "RIFF....WAVEnot really");
  skel::SkeletonData bad;
  bad.events = {event("thud", "sounds/bad.wav")};
  auto b = EventSoundPlayer::load(bad, folder, mixer);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().file, (rig.dir.path() / "sounds/bad.wav").string());
  EXPECT_NE(b.error().message.find("event \"thud\": "), std::string::npos) << b.error().message;

  skel::SkeletonData absolute;
  absolute.events = {event("ping", "/usr/share/sounds/ping.wav")};
  auto c = EventSoundPlayer::load(absolute, folder, mixer);
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("event \"ping\": the audio path \"/usr/share/sounds/ping.wav\" is absolute"),
            std::string::npos)
      << c.error().message;

  // Playing: no such bus (the host did not create "SFX"), an event of another skeleton.
  skel::SkeletonData good;
  good.events = {event("step", "sounds/step.wav")};
  auto player = EventSoundPlayer::load(good, folder, mixer);
  ASSERT_TRUE(player) << player.error().to_string();
  auto no_bus = player->play(fired(0));
  ASSERT_FALSE(no_bus);
  EXPECT_NE(no_bus.error().message.find("bus \"SFX\""), std::string::npos) << no_bus.error().message;
  auto other = player->play(fired(3), "Master");
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("event 3"), std::string::npos) << other.error().message;
}

TEST(EventSoundPlayer, DestroyingThePlayerStopsItsVoicesAndMovingKeepsThem) {
  RigFolder rig;
  skel::SkeletonData data;
  data.events = {event("long", "sounds/long.wav")};
  AudioMixer mixer;
  ASSERT_TRUE(ensure_event_bus(mixer));
  const Sound own = *Sound::from_samples(std::vector<float>(2 * 48000, 0.1f));
  const VoiceId unrelated = *mixer.play(own);
  {
    auto loaded = EventSoundPlayer::load(data, rig.dir.path().string(), mixer);
    ASSERT_TRUE(loaded);
    auto first = loaded->play(fired(0));
    auto second = loaded->play(fired(0));
    ASSERT_TRUE(first && second);
    EventSoundPlayer moved = std::move(*loaded);  // the sounds stay where they are
    EXPECT_TRUE(mixer.is_playing(*first));
    EXPECT_EQ(moved.sound(0)->frames(), 48000u);
    std::vector<float> out(2 * 256);
    mixer.mix(out.data(), 256);
    EXPECT_TRUE(mixer.is_playing(*second));
    EXPECT_EQ(mixer.active_voices(), 3);
  }
  EXPECT_EQ(mixer.active_voices(), 1);  // the player's voices stopped, the other one plays on
  EXPECT_TRUE(mixer.is_playing(unrelated));
}

}  // namespace
}  // namespace mf::scene
