// Fuzzes the runtime's graph binary loader with arbitrary bytes. Beyond "no crash": a graph it accepts
// validates and writes back to exactly the bytes it came from (the format has one encoding per graph),
// and a player bound to it (clips and bones named as the graph names them, lengths taken from a fixed
// list that includes zero) runs through parameter changes, triggers, forced states, travel and
// updates of every size, producing only finite clip times and weights in [0, 1].

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "mf/anim/animation_graph_player.hpp"
#include "mf/anim/graph_binary.hpp"
#include "mf/offline/graph/graph_compiler.hpp"

namespace {

void add_name(std::vector<std::string>& names, const std::string& name) {
  if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}

void check_samples(const mf::anim::AnimationGraphPlayer& player, std::span<const float> lengths) {
  for (const mf::anim::ClipSample& s : player.samples()) {
    if (!std::isfinite(s.time) || !std::isfinite(s.previous_time) || !std::isfinite(s.weight)) std::abort();
    if (s.weight < -1e-5f || s.weight > 1 + 1e-5f) std::abort();
    if (s.clip < 0 || static_cast<std::size_t>(s.clip) >= lengths.size()) std::abort();
    const float length = lengths[static_cast<std::size_t>(s.clip)];
    if (s.time < -1e-4f || s.time > length + 1e-4f * std::max(1.0f, length)) std::abort();
  }
}

void run_player(const mf::anim::AnimationGraph& graph) {
  std::vector<std::string> clips, bones;
  for (const auto& state : graph.states) add_name(clips, state.clip);
  for (const auto& member : graph.members) add_name(clips, member.clip);
  for (const auto& layer : graph.layers)
    for (const auto& bone : layer.mask_bones) add_name(bones, bone);
  if (bones.empty()) bones.push_back("root");
  constexpr std::array<float, 4> kLengths = {1.0f, 0.0f, 0.25f, 2.0f};
  std::vector<float> lengths;
  for (std::size_t i = 0; i < clips.size(); ++i) lengths.push_back(kLengths[i % kLengths.size()]);
  auto binding = mf::anim::bind_graph(graph, clips, lengths, bones);
  if (!binding.ok()) std::abort();  // every name the graph uses was given

  mf::anim::AnimationGraphPlayer player(graph, *binding);
  constexpr std::array<float, 6> kDeltas = {0.0f, 1.0f / 60, 0.5f, 3.0f, 1.0f / 60, 0.1f};
  constexpr std::array<float, 4> kValues = {0.0f, 1.0f, -2.5f, 1e6f};
  for (int round = 0; round < 4; ++round) {
    for (int p = 0; p < static_cast<int>(graph.params.size()); ++p) {
      switch (graph.params[static_cast<std::size_t>(p)].type) {
        case mf::anim::ParamType::Float: player.set_float(p, kValues[static_cast<std::size_t>(round)]); break;
        case mf::anim::ParamType::Int: player.set_int(p, static_cast<std::int32_t>(kValues[static_cast<std::size_t>(round)])); break;
        case mf::anim::ParamType::Bool: player.set_bool(p, (round & 1) != 0); break;
        case mf::anim::ParamType::Trigger: player.set_trigger(p); break;
      }
    }
    for (float delta : kDeltas) {
      player.update(delta);
      check_samples(player, lengths);
      (void)player.drain_signals();
    }
  }
  for (int layer = 0; layer < player.layer_count(); ++layer)
    for (int state = 0; state < static_cast<int>(graph.states.size()) && state < 16; ++state) {
      (void)player.force_state(layer, state, 0.2f);
      player.update(0.1f);
      check_samples(player, lengths);
      (void)player.travel(layer, static_cast<int>(graph.states.size()) - 1 - state);
      player.update(0.3f);
      check_samples(player, lengths);
      (void)player.drain_signals();
    }
  player.reset();
  player.update(1.0f / 60);
  check_samples(player, lengths);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  auto graph = mf::anim::load_graph_binary(bytes, "fuzz.mgbuild");
  if (!graph.ok()) {
    if (graph.error().message.empty()) std::abort();
    return 0;
  }
  if (!graph->validate().empty()) std::abort();
  const std::vector<std::uint8_t> again = mf::offline::write_graph_binary(*graph);
  if (again.size() != size || !std::equal(again.begin(), again.end(), data)) std::abort();
  run_player(*graph);
  return 0;
}
