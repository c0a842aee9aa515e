// Fuzzes the runtime's graph binary loader with arbitrary bytes. Beyond "no crash": a graph it accepts
// validates and writes back to exactly the bytes it came from (the format has one encoding per graph).

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "mf/anim/graph_binary.hpp"
#include "mf/offline/graph_compiler.hpp"

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
  return 0;
}
