#include "mf/editor/core/file_changes.hpp"

#include <algorithm>

namespace mf::editor {

FileChanges combine(FileChanges first, const FileChanges& next) {
  for (const FileChange& n : next) {
    auto it = std::find_if(first.begin(), first.end(), [&](const FileChange& f) { return f.file == n.file; });
    if (it == first.end()) first.push_back(n);
    else it->after = n.after;
  }
  return first;
}

}  // namespace mf::editor
