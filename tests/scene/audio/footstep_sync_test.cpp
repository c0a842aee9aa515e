// The mannequin's footsteps in sync with its walk, end to end: the example rig built offline, its
// walk clip played by an AnimatedSkeleton whose ticks follow the audio clock of an SDL device (the
// disk driver records what SDL is handed), each fired footstep played through an EventSoundPlayer at
// the mixer frame of its time on the skeleton's timeline. The recording must hold each footstep's
// samples from that frame (within one audio buffer), at the key's volume and pan.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numbers>
#include <thread>
#include <vector>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/scene/audio/audio_device.hpp"
#include "mf/scene/audio/event_sound_player.hpp"
#include "mf/skel/animated_skeleton.hpp"
#include "support/temp_dir.hpp"

namespace mf::scene {
namespace {

struct Footstep {
  double time;               // on the skeleton's timeline (seconds since the walk started)
  std::int64_t start_frame;  // round(time × rate)
  float volume, balance;     // from the fired key
};

TEST(FootstepSync, TheMannequinsFootstepsSoundWhereTheWalkFiresThem) {
  const std::string rig = std::string(MF_EXAMPLES_DIR) + "/mannequin";
  auto built = offline::build_rig_file(rig + "/mannequin.mskel");
  ASSERT_TRUE(built) << built.error().to_string();
  const skel::SkeletonData& data = *built->data;
  const int walk = data.find_clip("walk");
  const int footstep = data.find_event("footstep");
  ASSERT_GE(walk, 0);
  ASSERT_GE(footstep, 0);
  ASSERT_EQ(data.events[static_cast<std::size_t>(footstep)].audio, "audio/footstep.wav");
  const double length = data.clips[static_cast<std::size_t>(walk)].length;

  testing::TempDir dir("footstep_sync");
  const std::string file = dir.file("out.raw");
  ::setenv("SDL_AUDIODRIVER", "disk", 1);
  ::setenv("SDL_DISKAUDIOFILE", file.c_str(), 1);

  constexpr int kRate = 48000;
  constexpr int kBuffer = 512;
  // The skeleton runs this many audio buffers ahead of the audio clock, so a footstep is scheduled
  // before the mixer reaches its frame (the latency a game gives its audio).
  constexpr int kLead = 3;
  constexpr double kWalkSeconds = 1.6;  // footsteps at 0, 0.5, 1.0 and 1.5 s
  const double tick_seconds = static_cast<double>(kBuffer) / kRate;

  AudioMixer mixer({.sample_rate = kRate});
  ASSERT_TRUE(ensure_event_bus(mixer));
  auto player = EventSoundPlayer::load(data, rig, mixer);
  ASSERT_TRUE(player) << player.error().to_string();
  const Sound* sound = player->sound(footstep);
  ASSERT_NE(sound, nullptr);
  const auto sound_frames = static_cast<std::int64_t>(sound->frames());
  EXPECT_EQ(sound_frames, std::llround(5380.0 * kRate / 44100));  // 122 ms at 44100 Hz, resampled

  skel::AnimatedSkeleton skeleton(data);
  skeleton.tracks().set_clip(0, walk, true);
  std::vector<Footstep> footsteps;
  double timeline = 0;  // the skeleton's time, as the sum of its ticks
  int ticks = 0;
  auto tick = [&] {
    const double from = timeline;
    timeline += tick_seconds;
    ++ticks;
    skeleton.update(static_cast<float>(tick_seconds));
    for (const skel::FiredEvent& e : skeleton.events()) {
      ASSERT_EQ(e.event, footstep) << "the walk fires footsteps only";
      // The key's pass through the looping clip that falls in this tick.
      const double time = e.time + std::floor((timeline - e.time) / length) * length;
      ASSERT_GE(time, from - 1e-6);
      const std::int64_t start = std::llround(time * kRate);
      auto voice = player->play(e, kEventSoundBus, start);
      ASSERT_TRUE(voice) << voice.error().to_string();
      ASSERT_NE(voice->generation, 0u);
      footsteps.push_back({time, start, e.volume, e.balance});
    }
    skeleton.drain([](const skel::FiredEvent&, int) {}, [](const anim::TrackSignal&) {});
  };

  for (int i = 0; i < kLead; ++i) tick();  // before the device starts the clock
  {
    auto device = AudioDevice::open(mixer, {.buffer_frames = kBuffer});
    ASSERT_TRUE(device) << device.error().to_string();
    ASSERT_STREQ(AudioDevice::driver_name(), "disk");
    ASSERT_EQ((*device)->buffer_frames(), kBuffer);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    // One tick of one buffer's duration each time the audio clock passes another buffer.
    while (timeline < kWalkSeconds && std::chrono::steady_clock::now() < deadline) {
      if ((*device)->frames_played() >= static_cast<std::int64_t>(ticks - kLead + 1) * kBuffer) tick();
      else std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_GE(timeline, kWalkSeconds) << "the disk driver stalled";
    ASSERT_FALSE(footsteps.empty());
    const std::int64_t done = footsteps.back().start_frame + sound_frames + 2 * kBuffer;
    while ((*device)->frames_played() < done && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_GE((*device)->frames_played(), done) << "the disk driver stalled";
  }  // closed: the file is complete

  ASSERT_EQ(footsteps.size(), 4u);
  for (std::size_t i = 0; i < footsteps.size(); ++i) {
    EXPECT_NEAR(footsteps[i].time, 0.5 * static_cast<double>(i), 1e-5) << "footstep " << i;
    EXPECT_FLOAT_EQ(footsteps[i].volume, 0.6f) << "walk.manim's keys";
    EXPECT_FLOAT_EQ(footsteps[i].balance, 0.0f);
  }

  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<float> out(bytes.size() / sizeof(float));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
  const auto recorded = static_cast<std::int64_t>(out.size() / 2);
  auto left = [&](std::int64_t f) { return out[static_cast<std::size_t>(2 * f)]; };
  auto right = [&](std::int64_t f) { return out[static_cast<std::size_t>(2 * f + 1)]; };
  const std::span<const float> expected = sound->samples();  // mono: left = right

  // The sound's first frames may round to silence: the onset is the first sound frame that is not.
  std::int64_t lead_in = 0;
  while (expected[static_cast<std::size_t>(2 * lead_in)] == 0.0f) ++lead_in;
  std::int64_t searched = 0;
  for (std::size_t i = 0; i < footsteps.size(); ++i) {
    const Footstep& step = footsteps[i];
    SCOPED_TRACE("footstep " + std::to_string(i) + " at " + std::to_string(step.time) + " s");
    // Silence, then the footstep: nothing else plays.
    std::int64_t onset = searched;
    while (onset < recorded && left(onset) == 0.0f && right(onset) == 0.0f) ++onset;
    onset -= lead_in;
    ASSERT_LT(onset + sound_frames, recorded) << "no footstep in the recording";
    EXPECT_LE(std::llabs(onset - step.start_frame), kBuffer) << "onset at frame " << onset;

    // The samples are the sound's × volume × the constant-power pan gains (θ = (balance + 1)·π/4).
    const double theta = (step.balance + 1.0) * std::numbers::pi / 4.0;
    const double gain_left = step.volume * std::cos(theta), gain_right = step.volume * std::sin(theta);
    double energy_left = 0, energy_right = 0, energy_sound = 0;
    for (std::int64_t k = 0; k < sound_frames; ++k) {
      const double s = expected[static_cast<std::size_t>(2 * k)];
      ASSERT_NEAR(left(onset + k), s * gain_left, 1e-6) << "frame " << k << " of the footstep";
      ASSERT_NEAR(right(onset + k), s * gain_right, 1e-6) << "frame " << k << " of the footstep";
      energy_left += static_cast<double>(left(onset + k)) * left(onset + k);
      energy_right += static_cast<double>(right(onset + k)) * right(onset + k);
      energy_sound += s * s;
    }
    // Channel energies against the pan law: within 0.1 % of volume² · cos²θ and volume² · sin²θ
    // times the sound's energy.
    EXPECT_NEAR(energy_left / energy_sound, gain_left * gain_left, 1e-3 * gain_left * gain_left);
    EXPECT_NEAR(energy_right / energy_sound, gain_right * gain_right, 1e-3 * gain_right * gain_right);
    EXPECT_EQ(left(onset + sound_frames), 0.0f) << "the footstep ends with its sound";
    searched = onset + sound_frames;
  }
  // Nothing after the last footstep.
  for (std::int64_t f = searched; f < recorded; ++f) ASSERT_EQ(left(f), 0.0f) << "frame " << f;
}

}  // namespace
}  // namespace mf::scene
