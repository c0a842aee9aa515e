// Fuzzes the .mskel reader. Beyond "no crash": whatever the reader accepts must survive the canonical
// round trip (write, read back equal up to the orders the writer leaves out, in the same update order,
// write the same bytes).

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "mf/offline/format/skeleton_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mf::offline;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto skeleton = read_skeleton(text, "fuzz.mskel");
  if (!skeleton.ok()) {
    if (skeleton.error().to_string().empty()) std::abort();
    return 0;
  }
  const std::string canonical = write_skeleton(*skeleton);
  auto again = read_skeleton(canonical, "canonical.mskel");
  SkeletonSource expected = *skeleton;
  expected.canonicalize_orders();  // `order` only where the default order would differ
  if (!again.ok() || !(*again == expected) || again->update_order() != skeleton->update_order() ||
      write_skeleton(*again) != canonical)
    std::abort();
  return 0;
}
