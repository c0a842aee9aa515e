#include "psd_layer_tree.hpp"
#include "mf/imaging/rect_union.hpp"

#include <algorithm>

namespace mf::imaging::psd {

namespace {

bool is_folder(SectionType s) { return s == SectionType::OpenFolder || s == SectionType::ClosedFolder; }

// For each record, the index of its partner (a divider's folder, a folder's divider), or -1.
std::vector<int> match_sections(std::span<const FlatRecord> records) {
  std::vector<int> partner(records.size(), -1);
  std::vector<int> open;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const SectionType s = records[i].section;
    if (s == SectionType::Divider) {
      open.push_back(static_cast<int>(i));
    } else if (is_folder(s) && !open.empty()) {
      partner[i] = open.back();
      partner[static_cast<std::size_t>(open.back())] = static_cast<int>(i);
      open.pop_back();
    }
  }
  return partner;
}

}  // namespace

RecordPaths::RecordPaths(std::span<const FlatRecord> records) : parent_(records.size(), -1) {
  const std::vector<int> partner = match_sections(records);
  names_.reserve(records.size());
  std::vector<int> groups;  // the folder records of the groups open at this point, innermost last
  for (std::size_t i = 0; i < records.size(); ++i) {
    names_.push_back(records[i].layer.name);
    const SectionType s = records[i].section;
    if (is_folder(s) && partner[i] >= 0) groups.pop_back();
    parent_[i] = groups.empty() ? -1 : groups.back();
    if (s == SectionType::Divider && partner[i] >= 0) groups.push_back(partner[i]);
  }
}

std::string RecordPaths::operator()(std::size_t record) const {
  std::string path = names_[record];
  for (int p = parent_[record]; p >= 0; p = parent_[static_cast<std::size_t>(p)])
    path = names_[static_cast<std::size_t>(p)] + '/' + path;
  return path;
}

namespace {

class WarningList {
 public:
  explicit WarningList(std::vector<PsdWarning>& out) : out_(out) {}
  ~WarningList() {
    if (dropped_ > 0)
      out_.push_back(PsdWarning{{}, std::to_string(dropped_) + " more warnings not listed"});
  }
  WarningList(const WarningList&) = delete;
  WarningList& operator=(const WarningList&) = delete;

  void add(const RecordPaths& paths, std::size_t record, std::string message) {
    if (dropped_ > 0 || out_.size() >= kMaxPsdWarnings) {
      ++dropped_;
      return;
    }
    PsdWarning warning{paths(record), std::move(message)};
    bytes_ += warning.layer.size() + warning.message.size();
    if (bytes_ > kMaxPsdWarningBytes) {
      ++dropped_;
      return;
    }
    out_.push_back(std::move(warning));
  }

 private:
  std::vector<PsdWarning>& out_;
  std::size_t bytes_ = 0;
  std::size_t dropped_ = 0;
};

}  // namespace

void build_layer_tree(std::vector<FlatRecord> records, std::vector<PsdLayer>& layers,
                      std::vector<PsdWarning>& warnings) {
  const std::vector<int> partner = match_sections(records);
  const RecordPaths paths(records);
  WarningList list(warnings);
  std::vector<std::vector<PsdLayer>> frames(1);
  for (std::size_t i = 0; i < records.size(); ++i) {
    FlatRecord& record = records[i];
    for (auto& note : record.notes) list.add(paths, i, std::move(note));
    if (record.section == SectionType::Divider) {
      if (partner[i] >= 0)
        frames.emplace_back();
      else
        list.add(paths, i, "group end marker without its group: the layers above it are kept at this level");
    } else if (is_folder(record.section)) {
      PsdLayer group = std::move(record.layer);
      group.kind = PsdLayer::Kind::Group;
      group.group_open = record.section == SectionType::OpenFolder;
      group.pixels = Image{};
      group.bounds = Rect{};
      if (partner[i] >= 0) {
        group.children = std::move(frames.back());
        frames.pop_back();
      } else {
        list.add(paths, i, "group without its end marker: read as an empty group");
      }
      for (const PsdLayer& child : group.children) group.bounds = united(group.bounds, child.bounds);
      frames.back().push_back(std::move(group));
    } else if (!record.skipped) {
      frames.back().push_back(std::move(record.layer));
    }
  }
  layers = std::move(frames.front());
}

}  // namespace mf::imaging::psd
