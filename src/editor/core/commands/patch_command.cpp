#include "mf/editor/core/commands/patch_command.hpp"

namespace mf::editor {

Status PatchCommand::execute(Document& doc) {
  const RigModel before = doc.model(with_clips_);
  RigModel after = before;
  if (Status s = edit(after, doc); !s) return s;
  patch_ = RigPatch::diff(before, after);
  if (!patch_.empty()) patch_.apply(doc, true);
  return {};
}

}  // namespace mf::editor
