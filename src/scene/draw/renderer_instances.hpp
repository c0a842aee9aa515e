#pragma once
// RendererInstances<Renderer>: the per-node and per-data state a drawing step keeps in a renderer
// (SkeletonRenderer or ForwardRenderer, which share add_data / add_instance / remove_*): a data is
// added the first time a node shows it, an instance per node (by its serial); instances of nodes a
// frame did not meet are removed at its end (collect), and data no instance shows any more with them.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "mf/core/expected.hpp"
#include "mf/render/handles.hpp"
#include "mf/skel/skeleton_data.hpp"

namespace mf::scene::detail {

template <class Renderer>
class RendererInstances {
 public:
  explicit RendererInstances(Renderer& renderer) : renderer_(&renderer) {}
  ~RendererInstances() {
    for (auto& [serial, entry] : instances_) (void)renderer_->remove_instance(entry.instance);
    for (auto& [data, entry] : data_) (void)renderer_->remove_data(entry.handle);
  }
  RendererInstances(const RendererInstances&) = delete;
  RendererInstances& operator=(const RendererInstances&) = delete;

  Renderer& renderer() { return *renderer_; }
  void begin_frame() { ++frame_; }

  // The instance of node `serial` showing `data` (made on first use; remade when the node's data
  // changed). Errors are the renderer's, prefixed with `path`.
  Expected<render::InstanceHandle> instance(std::uint64_t serial, const std::shared_ptr<const skel::SkeletonData>& data,
                                            const std::string& path) {
    auto found = instances_.find(serial);
    if (found != instances_.end() && found->second.data != data.get()) {
      if (Status s = release(found->second); !s) return Unexpected{s.error()};
      instances_.erase(found);
      found = instances_.end();
    }
    if (found == instances_.end()) {
      auto data_entry = data_.find(data.get());
      if (data_entry == data_.end()) {
        auto handle = renderer_->add_data(*data);
        if (!handle) return Unexpected{Error{{}, {}, {}, path + ": " + handle.error().to_string()}};
        data_entry = data_.emplace(data.get(), DataEntry{*handle, data, 0}).first;
      }
      auto made = renderer_->add_instance(data_entry->second.handle);
      if (!made) return Unexpected{Error{{}, {}, {}, path + ": " + made.error().to_string()}};
      ++data_entry->second.instances;
      found = instances_.emplace(serial, InstanceEntry{*made, data.get(), 0}).first;
    }
    found->second.frame = frame_;
    return found->second.instance;
  }

  // Removes what this frame did not meet.
  Status collect() {
    for (auto it = instances_.begin(); it != instances_.end();) {
      if (it->second.frame == frame_) {
        ++it;
        continue;
      }
      if (Status s = release(it->second); !s) return s;
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

 private:
  struct InstanceEntry {
    render::InstanceHandle instance;
    const skel::SkeletonData* data = nullptr;
    std::uint64_t frame = 0;  // the frame that last met it
  };
  struct DataEntry {
    render::DataHandle handle;
    std::shared_ptr<const skel::SkeletonData> data;  // kept alive while the renderer holds it
    std::uint32_t instances = 0;
  };

  Status release(const InstanceEntry& entry) {
    if (Status s = renderer_->remove_instance(entry.instance); !s) return s;
    --data_[entry.data].instances;
    return {};
  }

  Renderer* renderer_;
  std::unordered_map<std::uint64_t, InstanceEntry> instances_;  // by the node's serial
  std::unordered_map<const skel::SkeletonData*, DataEntry> data_;
  std::uint64_t frame_ = 0;
};

}  // namespace mf::scene::detail
