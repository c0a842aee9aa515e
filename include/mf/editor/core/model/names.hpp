#pragma once
// Names for new and renamed objects: free names for creation and duplication, and the check a new
// name must pass (non-empty, not taken within its kind).

#include <functional>
#include <string>
#include <string_view>

#include "mf/core/expected.hpp"

namespace mf::editor {

// `base` when it is free; otherwise `base` without its trailing digits, followed by the smallest
// number from 2 that makes it free ("arm" → "arm2", "arm2" → "arm3"). An empty base is "unnamed".
std::string unique_name(std::string_view base, const std::function<bool(std::string_view)>& taken);

// Ok when `name` can be given to an object of `kind` ("bone", "slot", ...): not empty and, unless
// it is `current` (the object's own name), not `taken`.
Status check_name(std::string_view kind, std::string_view name, std::string_view current,
                  const std::function<bool(std::string_view)>& taken);

// An error for an edit that cannot be done: the message in one sentence, no file or position.
Unexpected edit_error(std::string message);

// "\"name\"".
std::string quoted(std::string_view name);

}  // namespace mf::editor
