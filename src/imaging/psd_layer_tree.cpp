#include "psd_layer_tree.hpp"

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

std::string joined(const std::vector<std::string>& names, const std::string& last) {
  std::string out;
  for (const auto& name : names) out += name + '/';
  return out + last;
}

Rect united(const Rect& a, const Rect& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  const int x0 = std::min(a.x, b.x), y0 = std::min(a.y, b.y);
  const long long x1 = std::max(static_cast<long long>(a.x) + a.width, static_cast<long long>(b.x) + b.width);
  const long long y1 = std::max(static_cast<long long>(a.y) + a.height, static_cast<long long>(b.y) + b.height);
  return Rect{x0, y0, static_cast<int>(x1 - x0), static_cast<int>(y1 - y0)};
}

}  // namespace

std::vector<std::string> record_paths(std::span<const FlatRecord> records) {
  const std::vector<int> partner = match_sections(records);
  std::vector<std::string> paths(records.size());
  std::vector<std::string> groups;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const SectionType s = records[i].section;
    if (is_folder(s) && partner[i] >= 0) groups.pop_back();
    paths[i] = joined(groups, records[i].layer.name);
    if (s == SectionType::Divider && partner[i] >= 0)
      groups.push_back(records[static_cast<std::size_t>(partner[i])].layer.name);
  }
  return paths;
}

void build_layer_tree(std::vector<FlatRecord> records, std::vector<PsdLayer>& layers,
                      std::vector<PsdWarning>& warnings) {
  const std::vector<int> partner = match_sections(records);
  const std::vector<std::string> paths = record_paths(records);
  std::vector<std::vector<PsdLayer>> frames(1);
  for (std::size_t i = 0; i < records.size(); ++i) {
    FlatRecord& record = records[i];
    for (auto& note : record.notes) warnings.push_back(PsdWarning{paths[i], std::move(note)});
    if (record.section == SectionType::Divider) {
      if (partner[i] >= 0)
        frames.emplace_back();
      else
        warnings.push_back(PsdWarning{paths[i], "group end marker without its group: the layers above it are kept at this level"});
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
        warnings.push_back(PsdWarning{paths[i], "group without its end marker: read as an empty group"});
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
