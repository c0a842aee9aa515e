#include "mf/editor/core/model/names.hpp"

namespace mf::editor {

std::string unique_name(std::string_view base, const std::function<bool(std::string_view)>& taken) {
  std::string name = base.empty() ? std::string("unnamed") : std::string(base);
  if (!taken(name)) return name;
  std::size_t stem_end = name.size();
  while (stem_end > 0 && name[stem_end - 1] >= '0' && name[stem_end - 1] <= '9') --stem_end;
  if (stem_end == 0) stem_end = name.size();  // all digits: append to the whole name
  const std::string stem = name.substr(0, stem_end);
  for (int n = 2;; ++n) {
    std::string candidate = stem + std::to_string(n);
    if (!taken(candidate)) return candidate;
  }
}

Status check_name(std::string_view kind, std::string_view name, std::string_view current,
                  const std::function<bool(std::string_view)>& taken) {
  if (name.empty()) return edit_error("a " + std::string(kind) + " name cannot be empty");
  if (name != current && taken(name))
    return edit_error("there is already a " + std::string(kind) + " named " + quoted(name));
  return {};
}

Unexpected edit_error(std::string message) { return Unexpected{Error{"", "", {}, std::move(message)}}; }

std::string quoted(std::string_view name) { return "\"" + std::string(name) + "\""; }

}  // namespace mf::editor
