// Fuzzes the .mgraph reader, checker and compiler. Beyond "no crash": whatever the reader accepts must
// survive the canonical round trip (write, read back, write the same bytes), and whatever the check
// passes must compile into a graph that validates and survives the binary round trip.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "mf/anim/graph_binary.hpp"
#include "mf/offline/graph/graph_check.hpp"
#include "mf/offline/graph/graph_compiler.hpp"
#include "mf/offline/graph/graph_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mf::offline;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto graph = read_graph(text, "fuzz.mgraph");
  if (!graph.ok()) {
    if (graph.error().to_string().empty()) std::abort();
    return 0;
  }
  const std::string canonical = write_graph(*graph);
  auto again = read_graph(canonical, "canonical.mgraph");
  if (!again.ok() || write_graph(*again) != canonical) std::abort();

  if (has_errors(check_graph(*graph, "fuzz.mgraph"))) return 0;
  auto compiled = compile_graph(*graph, "fuzz.mgraph", "fuzz");
  if (!compiled.ok() || !compiled->validate().empty()) std::abort();
  const std::vector<std::uint8_t> bytes = write_graph_binary(*compiled);
  auto loaded = mf::anim::load_graph_binary(bytes, "fuzz.mgbuild");
  if (!loaded.ok() || write_graph_binary(*loaded) != bytes) std::abort();
  return 0;
}
