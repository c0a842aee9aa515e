#include "mf/editor/core/commands/command_group.hpp"

namespace mf::editor {

Status CommandGroup::execute(Document& doc) {
  for (std::size_t i = 0; i < commands_.size(); ++i) {
    if (Status s = commands_[i]->execute(doc); !s) {
      for (std::size_t j = i; j-- > 0;) commands_[j]->undo(doc);
      return s;
    }
  }
  return {};
}

void CommandGroup::undo(Document& doc) {
  for (std::size_t j = commands_.size(); j-- > 0;) commands_[j]->undo(doc);
}

void CommandGroup::redo(Document& doc) {
  for (auto& c : commands_) c->redo(doc);
}

std::vector<Rename> CommandGroup::renames() const {
  std::vector<Rename> out;
  for (const auto& c : commands_)
    for (Rename& r : c->renames()) out.push_back(std::move(r));
  return out;
}

}  // namespace mf::editor
