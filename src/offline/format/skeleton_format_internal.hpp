#pragma once
// Shared between the two halves of the `.mskel` reader and writer: skeleton_format.cpp (the
// skeleton, its bones, slots, constraints, events and skins) and skeleton_format_attachments.cpp.
// Not installed; nothing outside src/offline includes it.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "mf/core/color.hpp"
#include "mf/offline/json/json_reader.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "mf/offline/format/skeleton_model.hpp"

namespace mf::offline::detail {

// Name -> index for one kind of named item, with the JSON path of each name for duplicate messages.
class NameIndex {
 public:
  // Adds `name` read from `node`; fails on `node` when the name is already taken.
  void add(const json::Node& node, const std::string& name, int index, std::string_view what);
  // The index of `name`, or -1.
  int find(std::string_view name) const;

 private:
  struct Entry {
    int index;
    std::string path;
  };
  std::unordered_map<std::string, Entry> entries_;
};

// The names an attachment may refer to, built while reading the skeleton.
struct ReadNames {
  NameIndex bones;
  NameIndex slots;
};

// ---- reading helpers --------------------------------------------------------------------------

// A required, non-empty name.
std::string read_name(json::ObjectReader& r, std::string_view key);
// A bone or slot referenced by name; fails naming the unknown name.
int resolve_bone(const json::Node& node, const ReadNames& names);
int resolve_slot(const json::Node& node, const ReadNames& names);

// Optional numbers with a range; `fallback` when absent.
float get_nonnegative(json::ObjectReader& r, std::string_view key, float fallback);
float get_positive(json::ObjectReader& r, std::string_view key, float fallback);
float get_in_range(json::ObjectReader& r, std::string_view key, float fallback, float min, float max);
// The member `key` of an object node, or nullopt (for checks after the object was read).
std::optional<json::Node> member(const json::Node& object, std::string_view key);
// An integer of at least `min`.
int as_int_at_least(const json::Node& node, int min);

// An enum written by name: `count` values from 0, named by to_string. Fails listing the choices.
template <class E>
E read_enum(const json::Node& node, std::string_view what, std::optional<E> (*parse)(std::string_view), int count) {
  const std::string& text = node.as_string();
  if (auto v = parse(text)) return *v;
  std::string choices;
  for (int i = 0; i < count; ++i) {
    if (i > 0) choices += ", ";
    choices += '"';
    choices += to_string(static_cast<E>(i));
    choices += '"';
  }
  node.fail("unknown " + std::string(what) + " \"" + text + "\"; expected one of " + choices);
}

// ---- attachments (skeleton_format_attachments.cpp) --------------------------------------------

// Reads one attachment of a skin; bones and slots are already known.
Attachment read_attachment(const json::Node& node, const ReadNames& names);

// Checks what only the whole skeleton can answer: a linked mesh's skin and parent mesh. `skins` is the
// file's "skins" array, whose items match skeleton.skins one to one.
void check_linked_meshes(const SkeletonSource& skeleton, const json::Node& skins);

// ---- writing helpers --------------------------------------------------------------------------

// A number as the canonical text has it. Negative zero is written as 0: "-0" would read back as the
// integer 0 and then be written differently.
void write_number(json::Writer& w, float v);

// Each writes `key` and its value.
void put_string(json::Writer& w, std::string_view key, std::string_view v);
void put_integer(json::Writer& w, std::string_view key, std::int64_t v);
void put_number(json::Writer& w, std::string_view key, float v);
void put_bool(json::Writer& w, std::string_view key, bool v);

// Each writes `key` only when the value differs from the default.
void write_float(json::Writer& w, std::string_view key, float v, float fallback);
void write_bool(json::Writer& w, std::string_view key, bool v, bool fallback);
void write_color(json::Writer& w, std::string_view key, Rgba8 v, Rgba8 fallback);
void write_string(json::Writer& w, std::string_view key, const std::string& v);  // left out when empty

// The name behind an index; empty when the index is out of range (the reader rejects that file).
const std::string& bone_name(const SkeletonSource& s, int index);
const std::string& slot_name(const SkeletonSource& s, int index);

void write_attachment(json::Writer& w, const SkeletonSource& skeleton, const Attachment& attachment);

}  // namespace mf::offline::detail
