#include "mf/scene/draw/canvas_drawer.hpp"

#include <string>
#include <utility>

#include "mf/scene/skeleton/skeleton_2d.hpp"

namespace mf::scene {

CanvasDrawer::~CanvasDrawer() {
  for (auto& [serial, entry] : instances_) (void)renderer_->remove_instance(entry.instance);
  for (auto& [data, entry] : data_) (void)renderer_->remove_data(entry.handle);
}

Status CanvasDrawer::draw(Node& root) {
  ++frame_;
  stats_ = {};
  if (Status s = visit(root); !s) return s;
  return collect();
}

Status CanvasDrawer::visit(Node& node) {
  if (auto* skeleton = dynamic_cast<Skeleton2D*>(&node)) {
    if (Status s = draw_skeleton(*skeleton); !s) return s;
  }
  for (std::size_t i = 0; i < node.child_count(); ++i) {
    if (Status s = visit(*node.child(i)); !s) return s;
  }
  return {};
}

Status CanvasDrawer::draw_skeleton(Skeleton2D& skeleton) {
  const std::shared_ptr<const skel::SkeletonData>& data = skeleton.data();
  const skel::SkeletonPose* pose = skeleton.pose();
  if (!data || !pose) return {};
  auto found = instances_.find(skeleton.serial());
  if (found != instances_.end() && found->second.data != data.get()) {
    // The node shows other data now: its instance belonged to the old one.
    if (Status s = renderer_->remove_instance(found->second.instance); !s) return s;
    --data_[found->second.data].instances;
    instances_.erase(found);
    found = instances_.end();
  }
  if (found == instances_.end()) {
    auto data_entry = data_.find(data.get());
    if (data_entry == data_.end()) {
      auto handle = renderer_->add_data(*data);
      if (!handle) return Unexpected{Error{{}, {}, {}, skeleton.path() + ": " + handle.error().to_string()}};
      data_entry = data_.emplace(data.get(), DataEntry{*handle, data, 0}).first;
    }
    auto instance = renderer_->add_instance(data_entry->second.handle);
    if (!instance) return Unexpected{Error{{}, {}, {}, skeleton.path() + ": " + instance.error().to_string()}};
    ++data_entry->second.instances;
    found = instances_.emplace(skeleton.serial(), InstanceEntry{*instance, data.get(), 0}).first;
  }
  found->second.frame = frame_;

  render::DrawOptions options;
  options.transform = skeleton.skeleton_transform();
  options.cull_bounds = skeleton.cull_bounds();
  const std::uint32_t culled_before = renderer_->stats().skeletons_culled;
  if (Status s = renderer_->draw(found->second.instance, *pose, options); !s)
    return Unexpected{Error{{}, {}, {}, skeleton.path() + ": " + s.error().to_string()}};
  const bool culled = renderer_->stats().skeletons_culled != culled_before;
  skeleton.set_was_culled(culled);
  ++(culled ? stats_.culled : stats_.drawn);
  return {};
}

// Instances of nodes this draw did not meet (freed, moved out of the tree, or data unset) go, and
// data that no instance shows any more with them.
Status CanvasDrawer::collect() {
  for (auto it = instances_.begin(); it != instances_.end();) {
    if (it->second.frame == frame_) {
      ++it;
      continue;
    }
    if (Status s = renderer_->remove_instance(it->second.instance); !s) return s;
    --data_[it->second.data].instances;
    it = instances_.erase(it);
  }
  for (auto it = data_.begin(); it != data_.end();) {
    if (it->second.instances > 0) {
      ++it;
      continue;
    }
    if (Status s = renderer_->remove_data(it->second.handle); !s) return s;
    it = data_.erase(it);
  }
  return {};
}

}  // namespace mf::scene
