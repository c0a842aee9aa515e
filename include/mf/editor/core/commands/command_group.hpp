#pragma once
// Several commands as one undo step with one name ("Add region \"head\"" that also makes it the
// slot's setup attachment). They run in order; when one fails, those before it are undone and the
// group fails.

#include <memory>
#include <string>
#include <vector>

#include "mf/editor/core/command.hpp"

namespace mf::editor {

class CommandGroup final : public Command {
 public:
  explicit CommandGroup(std::string name) : name_(std::move(name)) {}
  CommandGroup& add(std::unique_ptr<Command> command) {
    commands_.push_back(std::move(command));
    return *this;
  }

  std::string name() const override { return name_; }
  Status execute(Document& doc) override;
  void undo(Document& doc) override;
  void redo(Document& doc) override;
  std::vector<Rename> renames() const override;

 private:
  std::string name_;
  std::vector<std::unique_ptr<Command>> commands_;
};

}  // namespace mf::editor
