#pragma once
// Where read values came from, kept with the models so that later stages (the builders, the checks)
// point into the source file without reading it again.
//
// SourceLocation names one record: its JSON path and where its value starts (the graph model keeps
// one per record). SourceMap keeps the shape of a whole document with the position of every value,
// for stages that derive JSON paths of their own (`bones[4].parent`, `skins[0].attachments[2]`);
// the .mskel and .manim models carry one.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mf/core/error.hpp"
#include "mf/offline/json/json.hpp"

namespace mf::json {

// A record's JSON path and the position of its value. Empty for records built in code.
struct SourceLocation {
  std::string path;
  TextPosition position;
};

// The positions of a read document, by JSON path: its shape (types, member keys, array lengths)
// without the values. Copies share one table. A model built in code has an empty map, which knows
// no position. Where a model came from is not part of its value: any two maps compare equal.
class SourceMap {
 public:
  struct Entry {
    Type type = Type::Null;
    TextPosition position;
    std::vector<std::string> keys;  // Object: member keys, in file order
    std::vector<Entry> children;    // Array: the items; Object: the members' values, as `keys`

    // The member with this key, or nullptr (also when not an object).
    const Entry* member(std::string_view key) const;
  };

  SourceMap() = default;
  explicit SourceMap(const Value& root);

  bool empty() const { return root_ == nullptr; }

  // The value at a JSON path such as "bones[4].parent"; nullptr when the document has none.
  const Entry* find(std::string_view path) const;
  // Where that value starts; unknown when it does not exist.
  TextPosition position(std::string_view path) const;
  // Where the value at `path` starts, or its deepest ancestor that exists; unknown when empty.
  TextPosition nearest(std::string_view path) const;

  friend bool operator==(const SourceMap&, const SourceMap&) { return true; }

 private:
  std::shared_ptr<const Entry> root_;
};

}  // namespace mf::json
