#include "widget_registry.hpp"

#include <algorithm>

namespace mf::editor {

std::vector<std::string_view> split_widget_path(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::size_t end = slash == std::string_view::npos ? path.size() : slash;
    out.push_back(path.substr(start, end - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

void WidgetRegistry::begin_frame() {
  recording_.clear();
  scope_.clear();
}

void WidgetRegistry::end_frame() {
  std::swap(recording_, last_);
  recording_.clear();
  last_scrolled_ = recording_scrolled_;
  recording_scrolled_ = false;
}

void WidgetRegistry::push(std::string_view label) { scope_.emplace_back(label); }

void WidgetRegistry::pop() {
  if (!scope_.empty()) scope_.pop_back();
}

const std::string& WidgetRegistry::add(std::string_view label, const ScreenRect& rect, const ScreenRect& visible) {
  std::string path;
  for (const std::string& s : scope_) path += s + "/";
  path += label;
  recording_.push_back({std::move(path), rect, visible});
  return recording_.back().path;
}

bool WidgetRegistry::take_reveal(std::string_view full_path) {
  if (reveal_.empty() || reveal_ != full_path) return false;
  reveal_.clear();
  return true;
}

Expected<WidgetEntry> WidgetRegistry::find(std::string_view path) const {
  const auto fail = [&](const std::string& why) { return Unexpected{Error{{}, {}, {}, "widget \"" + std::string(path) + "\": " + why}}; };
  for (const WidgetEntry& e : last_)
    if (e.path == path) return e;
  const std::vector<std::string_view> want = split_widget_path(path);
  if (want.size() < 2) return fail("a path is the window's name and the widget's label, e.g. \"Hierarchy/hips\"");
  std::vector<const WidgetEntry*> matches;
  bool window_seen = false;
  for (const WidgetEntry& e : last_) {
    const std::vector<std::string_view> have = split_widget_path(e.path);
    if (have.front() != want.front()) continue;
    window_seen = true;
    if (have.size() < want.size()) continue;
    if (std::equal(want.begin() + 1, want.end(), have.end() - static_cast<std::ptrdiff_t>(want.size() - 1))) matches.push_back(&e);
  }
  if (matches.size() == 1) return *matches.front();
  if (matches.empty())
    return fail(window_seen ? "no such widget in window \"" + std::string(want.front()) + "\" in the last frame"
                            : "no window \"" + std::string(want.front()) + "\" in the last frame");
  std::string list;
  for (std::size_t i = 0; i < matches.size() && i < 4; ++i) list += (i ? ", " : "") + matches[i]->path;
  if (matches.size() > 4) list += ", …";
  return fail(std::to_string(matches.size()) + " widgets match (" + list + "); give more of the path");
}

}  // namespace mf::editor
