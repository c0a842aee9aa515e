#include "mf/editor/core/selection.hpp"

#include <algorithm>

namespace mf::editor {

bool Selection::contains(const ObjectId& id) const {
  return std::find(items_.begin(), items_.end(), id) != items_.end();
}

void Selection::select(ObjectId id) {
  items_.clear();
  items_.push_back(std::move(id));
}

void Selection::add(ObjectId id) {
  remove(id);
  items_.push_back(std::move(id));
}

void Selection::remove(const ObjectId& id) { items_.erase(std::remove(items_.begin(), items_.end(), id), items_.end()); }

void Selection::toggle(ObjectId id) {
  if (contains(id)) remove(id);
  else items_.push_back(std::move(id));
}

void Selection::apply(const Rename& rename) {
  for (ObjectId& id : items_) id = apply_rename(id, rename);
  // A rename onto a name that was selected too (possible only across kinds' containment) must not
  // leave the same id twice.
  std::vector<ObjectId> unique;
  for (ObjectId& id : items_)
    if (std::find(unique.begin(), unique.end(), id) == unique.end()) unique.push_back(std::move(id));
  items_ = std::move(unique);
}

void Selection::prune(const offline::SkeletonSource& skeleton) {
  items_.erase(std::remove_if(items_.begin(), items_.end(), [&](const ObjectId& id) { return !exists(skeleton, id); }),
               items_.end());
}

}  // namespace mf::editor
