#include "mf/core/file_io.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <unistd.h>

namespace mf {
namespace {

Unexpected io_error(const std::string& path, const std::string& what) {
  return Unexpected{Error{path, {}, {}, what}};
}

std::string temp_name_for(const std::string& path) {
  std::random_device rd;
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".tmp-%08x", static_cast<unsigned>(rd()));
  return path + suffix;
}

}  // namespace

Expected<std::string> read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return io_error(path, "is a directory, not a file");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return io_error(path, std::string("cannot open: ") + std::strerror(errno));
  std::string bytes;
  char buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) bytes.append(buffer, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return io_error(path, "read error");
  return bytes;
}

Status write_file_atomic(const std::string& path, std::string_view bytes) {
  const std::string temp = temp_name_for(path);
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f) return io_error(path, std::string("cannot write: ") + std::strerror(errno));
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const bool flushed = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  const bool closed = std::fclose(f) == 0;
  if (!written || !flushed || !closed) {
    std::remove(temp.c_str());
    return io_error(path, "write failed (disk full?); the original file is unchanged");
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::remove(temp.c_str());
    return io_error(path, "cannot replace the file: " + ec.message());
  }
  return {};
}

}  // namespace mf
