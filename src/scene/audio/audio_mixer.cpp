#include "mf/scene/audio/audio_mixer.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace mf::scene {

namespace {

Unexpected fail(std::string message) {
  Error e;
  e.message = std::move(message);
  return Unexpected{std::move(e)};
}

}  // namespace

AudioMixer::AudioMixer(const MixerOptions& options)
    : sample_rate_(options.sample_rate),
      max_buses_(static_cast<std::size_t>(std::max(options.max_buses, 1))),
      voices_(static_cast<std::size_t>(std::max(options.max_voices, 1))) {
  buses_.reserve(max_buses_);
  buses_.push_back(Bus{"Master", 1.0f, false});
}

int AudioMixer::find_bus(std::string_view name) const {
  for (std::size_t i = 0; i < buses_.size(); ++i)
    if (buses_[i].name == name) return static_cast<int>(i);
  return -1;
}

Status AudioMixer::create_bus(std::string_view name, float volume) {
  std::lock_guard lock(mutex_);
  if (name.empty()) return fail("a bus needs a name");
  if (find_bus(name) >= 0) return fail("bus \"" + std::string(name) + "\" exists already");
  if (!(volume >= 0.0f)) return fail("bus \"" + std::string(name) + "\": volume " + std::to_string(volume) + " is negative");
  if (buses_.size() >= max_buses_)
    return fail("cannot create bus \"" + std::string(name) + "\": the mixer has room for " + std::to_string(max_buses_) + " buses");
  buses_.push_back(Bus{std::string(name), volume, false});
  return {};
}

bool AudioMixer::has_bus(std::string_view name) const {
  std::lock_guard lock(mutex_);
  return find_bus(name) >= 0;
}

Status AudioMixer::set_bus_volume(std::string_view name, float volume) {
  std::lock_guard lock(mutex_);
  const int bus = find_bus(name);
  if (bus < 0) return fail("no bus named \"" + std::string(name) + "\"");
  if (!(volume >= 0.0f)) return fail("bus \"" + std::string(name) + "\": volume " + std::to_string(volume) + " is negative");
  buses_[static_cast<std::size_t>(bus)].volume = volume;
  return {};
}

Status AudioMixer::set_bus_mute(std::string_view name, bool muted) {
  std::lock_guard lock(mutex_);
  const int bus = find_bus(name);
  if (bus < 0) return fail("no bus named \"" + std::string(name) + "\"");
  buses_[static_cast<std::size_t>(bus)].muted = muted;
  return {};
}

Expected<VoiceId> AudioMixer::play(const Sound& sound, const PlayOptions& options) {
  std::lock_guard lock(mutex_);
  const int bus = find_bus(options.bus);
  if (bus < 0) return fail("cannot play on bus \"" + std::string(options.bus) + "\": there is no such bus");
  if (sound.sample_rate() != sample_rate_)
    return fail("cannot play a sound at " + std::to_string(sound.sample_rate()) + " Hz on a mixer at " +
                std::to_string(sample_rate_) + " Hz (load it at the mixer's rate)");
  const auto free_slot = std::find_if(voices_.begin(), voices_.end(), [](const Voice& v) { return v.sound == nullptr; });
  if (free_slot == voices_.end())
    return fail("cannot play: all " + std::to_string(voices_.size()) + " voices are playing");
  // NaN or infinite settings (from damaged data) would poison the whole mix: they mean centre and
  // silence.
  const float pan = std::isnan(options.pan) ? 0.0f : std::clamp(options.pan, -1.0f, 1.0f);
  const double theta = (static_cast<double>(pan) + 1.0) * std::numbers::pi / 4.0;
  const float volume = std::isfinite(options.volume) ? std::max(options.volume, 0.0f) : 0.0f;
  Voice& voice = *free_slot;
  voice.sound = &sound;
  voice.generation = next_generation_++;
  if (next_generation_ == 0) next_generation_ = 1;  // 0 marks the default id
  voice.bus = bus;
  voice.gain_left = static_cast<float>(volume * std::cos(theta));
  voice.gain_right = static_cast<float>(volume * std::sin(theta));
  voice.start = std::max(options.start_frame, clock_);
  return VoiceId{static_cast<std::uint32_t>(free_slot - voices_.begin()), voice.generation};
}

void AudioMixer::stop(VoiceId id) {
  std::lock_guard lock(mutex_);
  if (id.generation == 0 || id.slot >= voices_.size()) return;
  Voice& voice = voices_[id.slot];
  if (voice.sound && voice.generation == id.generation) voice.sound = nullptr;
}

void AudioMixer::stop_all() {
  std::lock_guard lock(mutex_);
  for (Voice& voice : voices_) voice.sound = nullptr;
}

bool AudioMixer::is_playing(VoiceId id) const {
  std::lock_guard lock(mutex_);
  if (id.generation == 0 || id.slot >= voices_.size()) return false;
  const Voice& voice = voices_[id.slot];
  return voice.sound && voice.generation == id.generation;
}

int AudioMixer::active_voices() const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(std::count_if(voices_.begin(), voices_.end(), [](const Voice& v) { return v.sound != nullptr; }));
}

std::int64_t AudioMixer::frames_mixed() const {
  std::lock_guard lock(mutex_);
  return clock_;
}

void AudioMixer::mix(float* out, int frames) {
  if (frames <= 0) return;
  const auto n = static_cast<std::size_t>(frames);
  std::fill(out, out + 2 * n, 0.0f);
  std::lock_guard lock(mutex_);
  const Bus& master = buses_[0];
  const float master_gain = master.muted ? 0.0f : master.volume;
  const std::int64_t begin = clock_, end = clock_ + frames;
  for (Voice& voice : voices_) {
    if (!voice.sound) continue;
    const std::span<const float> samples = voice.sound->samples();
    const auto length = static_cast<std::int64_t>(samples.size() / 2);
    const std::int64_t voice_end = voice.start + length;  // mixer frame after the sound's last
    const Bus& bus = buses_[static_cast<std::size_t>(voice.bus)];
    const float bus_gain = (bus.muted ? 0.0f : bus.volume) * (voice.bus == 0 ? 1.0f : master_gain);
    const float left = voice.gain_left * bus_gain, right = voice.gain_right * bus_gain;
    // The part of [begin, end) the voice covers, as mixer frames.
    const std::int64_t from = std::max(begin, voice.start), to = std::min(end, voice_end);
    for (std::int64_t f = from; f < to; ++f) {
      const auto s = static_cast<std::size_t>(f - voice.start) * 2;
      const auto o = static_cast<std::size_t>(f - begin) * 2;
      out[o] += samples[s] * left;
      out[o + 1] += samples[s + 1] * right;
    }
    if (voice_end <= end) voice.sound = nullptr;  // played to its end
  }
  for (std::size_t i = 0; i < 2 * n; ++i) out[i] = std::clamp(out[i], -1.0f, 1.0f);
  clock_ = end;
}

}  // namespace mf::scene
