#pragma once
// The build file (.mbuild): a rig compiled for the runtime, as bytes. `mfe skel build` and the bake
// cache write it (mf/offline/build_writer.hpp); the runtime loads it here with the standard library
// alone. Layout and versioning rule: docs/format-build.md.
//
// Loading validates everything the runtime will index: a wrong magic or version, a bad size, a
// truncated file, an index out of range or a range past its array is an error naming the file, the
// place (the field, and for bytes that cannot be read the section and byte offset) and the problem,
// never a crash. The bytes are read with mf::ByteReader (mf/core/byte_reader.hpp): no exceptions, and
// every count is checked against the bytes left before anything is allocated for it. Clips load on demand: the loaded SkeletonData lists every
// clip by name and length, keeps the file's bytes, and decodes a clip's blob the first time
// SkeletonData::load_clip asks for it.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "mf/core/expected.hpp"
#include "mf/skel/clip_data.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::skel {

// The format version this program writes and reads. Bump it whenever the meaning or layout of any
// byte changes (docs/format-build.md, "Versioning").
inline constexpr std::uint32_t kBuildVersion = 1;

// The first eight bytes of every build file.
inline constexpr char kBuildMagic[8] = {'M', 'F', 'S', 'K', 'B', 'L', 'D', '\0'};

// Section tags (four ASCII letters read as a little-endian 32-bit number).
constexpr std::uint32_t build_tag(char a, char b, char c, char d) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(a)) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(b)) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(c)) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(d)) << 24;
}
inline constexpr std::uint32_t kSkeletonSection = build_tag('S', 'K', 'E', 'L');
inline constexpr std::uint32_t kPagesSection = build_tag('P', 'A', 'G', 'E');
inline constexpr std::uint32_t kClipsSection = build_tag('C', 'L', 'I', 'P');

// Loads a build from its bytes; `file` names it in messages. The returned data keeps the bytes for
// its clip loader (each clip's blob is decoded and validated when first loaded). Clips whose blob the
// file leaves out (a build written without clips) are listed but fail to load with a clear error.
Expected<std::shared_ptr<SkeletonData>> load_build(std::string bytes, const std::string& file);

// Reads a build file with the standard library and loads it: what a shipped game calls, with no
// offline library. Errors name the file (`path`): one that cannot be read, or load_build's errors.
Expected<std::shared_ptr<SkeletonData>> load_build_file(const std::string& path);

// Decodes one clip blob (the clip section's per-clip bytes, also what the bake cache stores per
// clip) and validates it against `data`: every target, range and event index must fit. `file` and
// the clip's name appear in messages. cursor_base is left 0: SkeletonData::load_clip sets it.
Expected<std::shared_ptr<ClipData>> decode_clip(std::span<const std::uint8_t> blob, const SkeletonData& data,
                                                const std::string& file);

// Validates data made in memory the same way a loaded build is validated (every index and range the
// runtime reads). The offline writer runs it before writing, so a build that would not load is never
// written.
Status validate_skeleton_data(const SkeletonData& data, const std::string& file);
Status validate_clip_data(const ClipData& clip, const SkeletonData& data, const std::string& file);

}  // namespace mf::skel
