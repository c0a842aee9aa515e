#pragma once
// Asset UIDs: a type prefix and 12 lower-case hex digits ("skl_7d1c40e2a9b3").

#include <string>
#include <string_view>

namespace mf::offline {

inline constexpr std::string_view kSkeletonUidPrefix = "skl_";
inline constexpr std::string_view kClipUidPrefix = "anm_";

// A new random UID for a file made from scratch.
std::string make_uid(std::string_view prefix);
// A UID derived from `source` (an importer's path and names), so the same source gives the same UID.
std::string derive_uid(std::string_view prefix, std::string_view source);
// True when `uid` is `prefix` followed by exactly 12 lower-case hex digits.
bool is_valid_uid(std::string_view uid, std::string_view prefix);

}  // namespace mf::offline
