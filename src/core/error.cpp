#include "mf/core/error.hpp"

namespace mf {

std::string Error::to_string() const {
  std::string out;
  if (!file.empty()) {
    out += file;
    if (position.known()) {
      out += ':' + std::to_string(position.line);
      if (position.column > 0) out += ':' + std::to_string(position.column);
    }
    out += ": ";
  }
  if (!path.empty()) out += path + ": ";
  out += message;
  return out;
}

}  // namespace mf
