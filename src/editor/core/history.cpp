#include "mf/editor/core/history.hpp"

namespace mf::editor {

Status History::execute(Document& doc, std::unique_ptr<Command> command, bool* pushed) {
  if (pushed) *pushed = false;
  doc.begin_change();
  Status status = command->execute(doc);
  FileChanges files = doc.end_change();
  if (!status) {
    // A command must leave the document as it was on error; its files keep their states too.
    if (!files.empty()) doc.restore_files(files, false);
    return status;
  }
  if (files.empty()) return {};  // nothing changed: no entry

  entries_.resize(position_);  // the undone entries can no longer be redone
  if (saved_ && *saved_ > position_) saved_.reset();

  const bool mergeable = merge_open_ && position_ > 0 && saved_ != position_;
  if (mergeable && entries_.back().command->merge_with(*command)) {
    entries_.back().files = combine(std::move(entries_.back().files), files);
    return {};
  }
  entries_.push_back({std::move(command), std::move(files)});
  ++position_;
  if (pushed) *pushed = true;
  merge_open_ = true;
  if (limit_ > 0 && entries_.size() > limit_) {
    entries_.erase(entries_.begin());
    --position_;
    if (saved_) saved_ = *saved_ == 0 ? std::nullopt : std::optional<std::size_t>(*saved_ - 1);
  }
  return {};
}

bool History::undo(Document& doc) {
  merge_open_ = false;
  if (position_ == 0) return false;
  Entry& e = entries_[--position_];
  e.command->undo(doc);
  doc.restore_files(e.files, false);
  return true;
}

bool History::redo(Document& doc) {
  merge_open_ = false;
  if (position_ == entries_.size()) return false;
  Entry& e = entries_[position_++];
  e.command->redo(doc);
  doc.restore_files(e.files, true);
  return true;
}

void History::clear() {
  const bool saved_now = at_saved_point();
  entries_.clear();
  position_ = 0;
  saved_ = saved_now ? std::optional<std::size_t>(0) : std::nullopt;
  merge_open_ = false;
}

std::vector<std::string> History::names() const {
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) out.push_back(e.command->name());
  return out;
}

void History::mark_saved() {
  saved_ = position_;
  merge_open_ = false;
}

}  // namespace mf::editor
