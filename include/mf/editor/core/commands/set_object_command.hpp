#pragma once
// The pattern of the "set fields" commands: replace one object of the skeleton (a bone, a slot, a
// constraint, an event, an attachment) with an edited copy. The object's identity (its name, and
// what other commands own: a bone's parent, an attachment's slot and type) must stay; everything
// else is validated as the reader would.
//
// The history name says what changed: each kind lists its field groups ("Move" for x and y,
// "Rotate", "Set colour of", ...); one changed group gives "Rotate bone \"arm\"", several give
// "Edit bone \"arm\"". Merge rule: a command absorbs the next when both carry the same non-zero
// gesture, name the same object and change the same field groups, so a drag is one undo step.
//
// Traits provide:
//   using Value = ...; using Key = ...;                    the object type and how it is found
//   static Value* find(SkeletonSource&, const Key&);     nullptr when missing (also const)
//   static std::string noun(const SkeletonSource&, const Key&, const Value&);  "bone \"arm\""
//   static std::span<const FieldGroup<Value>> groups();
//   static Status validate(const Document&, const Key&, const Value& before, const Value& after);

#include <cstdint>
#include <span>
#include <string>

#include "mf/editor/core/command.hpp"
#include "mf/editor/core/model/names.hpp"

namespace mf::editor {

template <class Value>
struct FieldGroup {
  const char* action;  // "Move", "Set length of"
  bool (*differs)(const Value& a, const Value& b);
};

template <class Traits>
class SetObjectCommand final : public Command {
 public:
  using Value = typename Traits::Value;
  using Key = typename Traits::Key;

  SetObjectCommand(Key key, Value value) : key_(std::move(key)), after_(std::move(value)) {}

  std::string name() const override { return name_; }
  const Key& key() const { return key_; }
  const Value& value() const { return after_; }

  Status execute(Document& doc) override {
    const offline::SkeletonSource& s = doc.skeleton();
    const Value* current = Traits::find(s, key_);
    if (!current) return edit_error("the object to edit does not exist");
    before_ = *current;
    if (before_ == after_) return {};
    if (Status st = Traits::validate(doc, key_, before_, after_); !st) return st;
    fields_ = changed_groups(before_, after_);
    name_ = describe(s);
    *Traits::find(doc.edit_skeleton(), key_) = after_;
    return {};
  }
  void undo(Document& doc) override { *Traits::find(doc.edit_skeleton(), key_) = before_; }
  void redo(Document& doc) override { *Traits::find(doc.edit_skeleton(), key_) = after_; }

  bool merge_with(const Command& next) override {
    const auto* n = dynamic_cast<const SetObjectCommand*>(&next);
    if (!n || gesture() == 0 || n->gesture() != gesture() || !(n->key_ == key_) || n->fields_ != fields_) return false;
    after_ = n->after_;
    return true;
  }

 private:
  static std::uint64_t changed_groups(const Value& a, const Value& b) {
    std::uint64_t mask = 0;
    const auto groups = Traits::groups();
    for (std::size_t i = 0; i < groups.size(); ++i)
      if (groups[i].differs(a, b)) mask |= std::uint64_t{1} << i;
    return mask;
  }

  std::string describe(const offline::SkeletonSource& s) const {
    const std::string noun = Traits::noun(s, key_, before_);
    const auto groups = Traits::groups();
    if (fields_ != 0 && (fields_ & (fields_ - 1)) == 0)
      for (std::size_t i = 0; i < groups.size(); ++i)
        if (fields_ == std::uint64_t{1} << i) return std::string(groups[i].action) + " " + noun;
    return "Edit " + noun;
  }

  Key key_;
  Value before_{};
  Value after_;
  std::uint64_t fields_ = 0;
  std::string name_;
};

}  // namespace mf::editor
