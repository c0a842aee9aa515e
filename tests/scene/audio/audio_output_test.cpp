// AudioOutput as the skeleton nodes' event audio: a Skeleton2D walking under it plays its footsteps
// through the scene's mixer on its EventAudioBus. With SDL's disk driver and the tree advanced by one
// audio buffer each time the audio clock passes one, each footstep's samples start within one buffer
// after the event's time × sample rate (it plays at the start of the next mix), at the key's volume
// and centre pan. Errors (an unknown bus, a missing sound) are kept once, and the event stays silent.

#include "mf/scene/audio/audio_output.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

#include "mf/offline/build/skeleton_builder.hpp"
#include "mf/scene/scene_tree.hpp"
#include "mf/scene/skeleton/skeleton_2d.hpp"
#include "support/temp_dir.hpp"

namespace mf::scene {
namespace {

const std::string kRig = std::string(MF_EXAMPLES_DIR) + "/mannequin";

std::shared_ptr<const skel::SkeletonData> mannequin() {
  static std::shared_ptr<const skel::SkeletonData> data = [] {
    auto built = offline::build_rig_file(kRig + "/mannequin.mskel");
    EXPECT_TRUE(built) << built.error().to_string();
    return built ? std::shared_ptr<const skel::SkeletonData>(built->data) : nullptr;
  }();
  return data;
}

TEST(AudioOutput, AWalkingSkeletonsFootstepsSoundFromTheirEventTimes) {
  ASSERT_TRUE(mannequin());
  testing::TempDir dir("audio_output");
  const std::string file = dir.file("out.raw");
  ::setenv("SDL_AUDIODRIVER", "disk", 1);
  ::setenv("SDL_DISKAUDIOFILE", file.c_str(), 1);
  constexpr int kRate = 48000, kBuffer = 1024;
  const float tick = static_cast<float>(kBuffer) / kRate;

  std::vector<double> event_times;
  std::int64_t sound_frames = 0;
  std::vector<float> sound;
  {
    SceneTree tree;
    AudioOutput* audio = *tree.root().make_child<AudioOutput>("audio", MixerOptions{.sample_rate = kRate});
    audio->set_sound_folder(kRig);
    ASSERT_TRUE(audio->preload(*mannequin()));
    auto node = std::make_unique<Skeleton2D>("walker");
    ASSERT_TRUE(node->set_clip("walk"));
    ASSERT_TRUE(node->set_data(mannequin()));
    node->set_update_mode(SkeletonUpdateMode::Manual);  // advanced by the audio clock below
    Skeleton2D* walker = *audio->add_child(std::move(node));
    double timeline = 0;
    walker->animation_event.connect([&](Skeleton2D*, const SkeletonEvent& e) {
      // The key's pass through the looping clip within the tick that fired it.
      event_times.push_back(e.time + std::floor((timeline - e.time) / 1.0) * 1.0);
    });
    ASSERT_TRUE(audio->open_device({.buffer_frames = kBuffer}));
    ASSERT_EQ(audio->device()->buffer_frames(), kBuffer);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int ticks = 0;
    while (timeline < 1.6 && std::chrono::steady_clock::now() < deadline) {
      if (audio->device()->frames_played() >= static_cast<std::int64_t>(ticks + 1) * kBuffer) {
        ++ticks;
        timeline += tick;
        ASSERT_TRUE(walker->advance(tick));
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    ASSERT_GE(timeline, 1.6) << "the disk driver stalled";
    const int footstep = mannequin()->find_event("footstep");
    EXPECT_EQ(audio->sounds_played(), 4u);
    EXPECT_TRUE(audio->errors().empty());
    // The decoded sound, to compare the recording with.
    auto player = EventSoundPlayer::load(*mannequin(), kRig, audio->mixer());
    ASSERT_TRUE(player);
    const Sound* s = player->sound(footstep);
    ASSERT_NE(s, nullptr);
    sound.assign(s->samples().begin(), s->samples().end());
    sound_frames = static_cast<std::int64_t>(s->frames());
    while (audio->device()->frames_played() < std::llround(timeline * kRate) + sound_frames + 2 * kBuffer &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }  // the device closes: the file is complete

  ASSERT_EQ(event_times.size(), 4u);
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<float> out(bytes.size() / sizeof(float));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
  const auto recorded = static_cast<std::int64_t>(out.size() / 2);
  std::int64_t lead_in = 0;
  while (sound[static_cast<std::size_t>(2 * lead_in)] == 0.0f) ++lead_in;
  std::int64_t searched = 0;
  const double gain = 0.6 * std::sqrt(0.5);  // the keys' volume, centre pan: cos(π/4) on each side
  for (std::size_t i = 0; i < event_times.size(); ++i) {
    SCOPED_TRACE("footstep " + std::to_string(i));
    EXPECT_NEAR(event_times[i], 0.5 * static_cast<double>(i), 1e-4);
    std::int64_t onset = searched;
    while (onset < recorded && out[static_cast<std::size_t>(2 * onset)] == 0.0f) ++onset;
    onset -= lead_in;
    ASSERT_LT(onset + sound_frames, recorded) << "no footstep in the recording";
    const std::int64_t due = std::llround(event_times[i] * kRate);
    EXPECT_GE(onset, due - 1);
    EXPECT_LE(onset - due, kBuffer) << "onset at frame " << onset << ", the event at " << due;
    for (std::int64_t k = 0; k < sound_frames; k += 7) {
      const double expected = sound[static_cast<std::size_t>(2 * k)] * gain;
      ASSERT_NEAR(out[static_cast<std::size_t>(2 * (onset + k))], expected, 1e-6) << "frame " << k;
      ASSERT_NEAR(out[static_cast<std::size_t>(2 * (onset + k) + 1)], expected, 1e-6) << "frame " << k;
    }
    searched = onset + sound_frames;
  }
}

TEST(AudioOutput, AnUnknownBusOrMissingSoundIsKeptOnceAndTheEventIsSilent) {
  SceneTree tree;
  AudioOutput* audio = *tree.root().make_child<AudioOutput>("audio");
  audio->set_sound_folder("/nonexistent-folder");
  auto node = std::make_unique<Skeleton2D>("walker");
  ASSERT_TRUE(node->set_clip("walk"));
  ASSERT_TRUE(node->set_data(mannequin()));
  Skeleton2D* walker = *audio->add_child(std::move(node));
  for (int i = 0; i < 120; ++i) tree.advance(1 / 60.0f);
  ASSERT_EQ(audio->errors().size(), 1u);
  EXPECT_NE(audio->errors()[0].find("footstep.wav"), std::string::npos);
  EXPECT_EQ(audio->sounds_played(), 0u);

  audio->set_sound_folder(kRig);
  ASSERT_TRUE(audio->preload(*mannequin()));
  walker->set_event_audio_bus("Voices");  // never created
  for (int i = 0; i < 120; ++i) tree.advance(1 / 60.0f);
  ASSERT_EQ(audio->errors().size(), 2u);
  EXPECT_NE(audio->errors()[1].find("Voices"), std::string::npos);
  ASSERT_TRUE(audio->mixer().create_bus("Voices"));
  for (int i = 0; i < 60; ++i) tree.advance(1 / 60.0f);
  EXPECT_GE(audio->sounds_played(), 1u);
}

TEST(AudioOutput, EachNodeHasItsOwnPlayerAndLeavingTheTreeStopsOnlyItsSounds) {
  ASSERT_TRUE(mannequin());
  SceneTree tree;  // no device: the mixer's voices show what plays
  AudioOutput* audio = *tree.root().make_child<AudioOutput>("audio");
  audio->set_sound_folder(kRig);
  Skeleton2D* walkers[2];
  for (int i = 0; i < 2; ++i) {
    auto node = std::make_unique<Skeleton2D>("walker" + std::to_string(i));
    ASSERT_TRUE(node->set_clip("walk"));
    ASSERT_TRUE(node->set_data(mannequin()));
    node->set_update_mode(SkeletonUpdateMode::Manual);
    walkers[i] = *audio->add_child(std::move(node));
  }
  EXPECT_EQ(audio->node_players(), 0u);  // made on first use
  // The walk's first footstep (at 0 s) fires on the first tick of each; the sound is longer than it.
  ASSERT_TRUE(walkers[0]->advance(0.01f));
  EXPECT_EQ(audio->node_players(), 1u);
  ASSERT_TRUE(walkers[1]->advance(0.01f));
  EXPECT_EQ(audio->node_players(), 2u);
  EXPECT_EQ(audio->sounds_played(), 2u);
  EXPECT_EQ(audio->mixer().active_voices(), 2);

  // Leaving the tree stops the node's own sound and drops its player; the other plays on.
  std::unique_ptr<Node> gone = audio->remove_child(walkers[0]);
  EXPECT_EQ(audio->mixer().active_voices(), 1);
  EXPECT_EQ(audio->node_players(), 1u);
  // Back in the tree, it gets a new player on its next footstep.
  Skeleton2D* back = *audio->add_child(std::unique_ptr<Skeleton2D>(static_cast<Skeleton2D*>(gone.release())));
  ASSERT_TRUE(back->advance(0.5f));
  EXPECT_EQ(audio->node_players(), 2u);
  EXPECT_EQ(audio->mixer().active_voices(), 2);
  EXPECT_TRUE(audio->errors().empty());
}

}  // namespace
}  // namespace mf::scene
