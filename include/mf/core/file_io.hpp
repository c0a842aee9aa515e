#pragma once
// Whole-file reads and crash-safe writes.

#include <string>
#include <string_view>

#include "mf/core/expected.hpp"

namespace mf {

// Reads a whole file as bytes. The error names the file and the reason.
Expected<std::string> read_file(const std::string& path);

// Writes `bytes` to a temporary file beside `path`, flushes it, then renames it over `path`, so a
// failed or interrupted write never leaves a damaged file behind.
Status write_file_atomic(const std::string& path, std::string_view bytes);

}  // namespace mf
