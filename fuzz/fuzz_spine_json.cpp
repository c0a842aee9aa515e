// Fuzzes the Spine JSON importer (skeleton and animations, no images). Beyond "no crash": a rejected
// input has a message, and an accepted one converts to a rig that writes and reads back as a valid
// .mskel.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/import/spine/spine_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mf::offline;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto import = convert_spine(text, "fuzz.json");
  if (!import.ok()) {
    if (import.error().message.empty()) std::abort();
    return 0;
  }
  auto back = read_skeleton(write_skeleton(import->skeleton), "fuzz.mskel");
  if (!back.ok()) std::abort();
  return 0;
}
