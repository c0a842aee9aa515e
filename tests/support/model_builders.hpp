#pragma once
// Small builders of source-model values for tests that make skeletons in code.

#include <string>
#include <utility>

#include "mf/offline/format/skeleton_model.hpp"

namespace mf::testing {

// A default value of T with its name set (bones, slots, constraints, events, skins, event keys).
template <class T>
T named(const std::string& name) {
  T t;
  t.name = name;
  return t;
}

inline offline::Slot slot(const std::string& name, int bone, const std::string& attachment = "") {
  offline::Slot s = named<offline::Slot>(name);
  s.bone = bone;
  s.attachment = attachment;
  return s;
}

inline offline::Attachment attachment(int slot_index, const std::string& name, offline::AttachmentData data) {
  offline::Attachment a;
  a.slot = slot_index;
  a.name = name;
  a.data = std::move(data);
  return a;
}

}  // namespace mf::testing
