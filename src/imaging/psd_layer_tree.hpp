#pragma once
// The group tree of a PSD file, built from its flat list of layer records. Private to the PSD reader.
//
// Records are stored bottom-most first. A group is a run of records between a section divider (an
// `lsct` of type 3, below the group's layers) and the group's own folder record (type 1 open or 2
// closed, above them), which gives the group's name and properties. Dividers and folders pair like
// brackets. Unbalanced ones are not an error, since the layers are all there: a divider without its
// folder is dropped, its layers kept at the level above; a folder without its divider becomes an empty
// group. Each case is reported as a warning.

#include <span>
#include <string>
#include <vector>

#include "mf/imaging/psd.hpp"

namespace mf::imaging::psd {

enum class SectionType : std::uint8_t { Layer = 0, OpenFolder = 1, ClosedFolder = 2, Divider = 3 };

struct FlatRecord {
  PsdLayer layer;  // name and properties; pixels for pixel layers
  SectionType section = SectionType::Layer;
  bool skipped = false;            // not carried into the tree (adjustment or fill layer, smart object)
  std::vector<std::string> notes;  // warnings about this record, in file order
};

// Each record's path, the names of its enclosing groups and its own joined by '/', made on demand (a
// path can be long: made for every record of a deep file they would cost the records times the depth).
class RecordPaths {
 public:
  explicit RecordPaths(std::span<const FlatRecord> records);
  std::string operator()(std::size_t record) const;

 private:
  std::vector<std::string> names_;
  std::vector<int> parent_;  // the enclosing group's folder record, or -1
};

// Warnings kept at most, by count and by the bytes of their text; past either, one last warning says
// how many more there were, so a file of many small damaged layers cannot fill memory with messages.
inline constexpr std::size_t kMaxPsdWarnings = 1000;  // as psd.hpp says
inline constexpr std::size_t kMaxPsdWarningBytes = 1u << 20;

// The tree (top-level layers and groups, bottom-most first) and, in record order, the records' notes
// and the unbalanced dividers as warnings.
void build_layer_tree(std::vector<FlatRecord> records, std::vector<PsdLayer>& layers,
                      std::vector<PsdWarning>& warnings);

}  // namespace mf::imaging::psd
