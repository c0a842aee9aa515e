#pragma once
// The selection: an ordered set of object ids (object_id.hpp), the last one added being the primary
// (the one an inspector shows). Ids are names, so a selection stays right while other objects are
// added, deleted or reordered; Workspace follows the renames that commands report and, after every
// command, undo and redo, drops the ids whose objects no longer exist. An object deleted and then
// brought back by undo is not selected again.

#include <vector>

#include "mf/editor/core/object_id.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::editor {

class Selection {
 public:
  const std::vector<ObjectId>& items() const { return items_; }
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  bool contains(const ObjectId& id) const;
  // The last id added; nullptr when the selection is empty.
  const ObjectId* primary() const { return items_.empty() ? nullptr : &items_.back(); }

  // The selected ids of one kind, in selection order.
  template <class T>
  std::vector<T> of_kind() const {
    std::vector<T> out;
    for (const ObjectId& id : items_)
      if (const T* v = std::get_if<T>(&id)) out.push_back(*v);
    return out;
  }

  void clear() { items_.clear(); }
  // Makes `id` the whole selection.
  void select(ObjectId id);
  // Adds `id` (moving it to the end, as the primary, when already selected).
  void add(ObjectId id);
  void remove(const ObjectId& id);
  // Removes `id` when selected, else adds it.
  void toggle(ObjectId id);

  // Follows a rename (apply_rename on every id).
  void apply(const Rename& rename);
  // Drops ids whose objects `skeleton` lacks.
  void prune(const offline::SkeletonSource& skeleton);

  friend bool operator==(const Selection&, const Selection&) = default;

 private:
  std::vector<ObjectId> items_;
};

}  // namespace mf::editor
