// The Spine importer's entry points: find and read the JSON and its atlas, convert the skeleton
// and the animations, unpack the images, write the rig and the report.

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

#include "mf/core/file_io.hpp"
#include "mf/imaging/png.hpp"
#include "mf/offline/import/import_files.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/clip_names.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/import/spine/spine_atlas.hpp"
#include "mf/offline/import/spine/spine_import.hpp"
#include "mf/offline/format/uid.hpp"
#include "spine_internal.hpp"

namespace mf::offline {
namespace fs = std::filesystem;
namespace {

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The atlas: the one named, else <json base name>.atlas beside the JSON, else the only .atlas in
// its folder. Empty when there is none.
Expected<std::string> locate_atlas(const SpineImportOptions& options) {
  if (!options.atlas_path.empty()) return options.atlas_path;
  const fs::path json(options.json_path);
  const fs::path beside = json.parent_path() / (json.stem().string() + ".atlas");
  std::error_code ec;
  if (fs::is_regular_file(beside, ec)) return beside.string();
  std::vector<std::string> found;
  const fs::path folder = json.parent_path().empty() ? fs::path(".") : json.parent_path();
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && lower(it->path().extension().string()) == ".atlas") found.push_back(it->path().string());
  std::sort(found.begin(), found.end());
  if (found.size() == 1) return found.front();
  if (found.empty()) return std::string();
  std::string list;
  for (const std::string& f : found) list += (list.empty() ? "" : ", ") + fs::path(f).filename().string();
  return Unexpected{Error{options.json_path, {}, {},
                          "found several atlases (" + list + ") and none named " + beside.filename().string() +
                              ": choose one with --atlas"}};
}

// The atlas region of an image: by name, else (for "name03"-style sequence frames of an older atlas)
// by base name and index.
const SpineAtlasRegion* region_for(const SpineAtlas& atlas, const std::string& image, const SpineAtlasPage** page) {
  if (const SpineAtlasRegion* r = atlas.find(image, -1, page)) return r;
  std::size_t digits = image.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(image[digits - 1]))) --digits;
  if (digits == image.size() || image.size() - digits > 9) return nullptr;
  const int index = std::stoi(image.substr(digits));
  return atlas.find(image.substr(0, digits), index, page);
}

}  // namespace

Expected<SpineImport> convert_spine(std::string_view json_text, const std::string& file) {
  Expected<json::Value> root = json::parse(json_text, file);
  if (!root) return Unexpected{root.error()};
  SpineImport out;
  out.name = fs::path(file).stem().string();
  Expected<spine::Version> version = spine::read_version(*root, file, out.notes);
  if (!version) return Unexpected{version.error()};
  if (const json::Value* meta = root->find("skeleton"))
    if (const json::Value* s = meta->is_object() ? meta->find("spine") : nullptr; s && s->is_string())
      out.spine_version = s->string;
  spine::Context context{file, *version, &out.notes};
  Expected<SkeletonSource> skeleton = spine::convert_skeleton(*root, context);
  if (!skeleton) return Unexpected{skeleton.error()};
  out.skeleton = std::move(*skeleton);
  // Derived from the file name and names only, so importing the same export again (from anywhere)
  // gives the same files.
  const std::string source = fs::path(file).filename().string();
  out.skeleton.uid = derive_uid(kSkeletonUidPrefix, source);
  // What Spine accepts but our format does not (an IK target inside its own chain, say) is refused
  // here, with the reader's message, rather than written as a rig nothing can load.
  if (Expected<SkeletonSource> check = read_skeleton(write_skeleton(out.skeleton), out.name + ".mskel"); !check)
    return Unexpected{Error{file, check.error().path, {}, "the converted rig is not valid: " + check.error().message}};
  Expected<std::vector<std::pair<std::string, ClipSource>>> clips = spine::convert_animations(*root, out.skeleton, context);
  if (!clips) return Unexpected{clips.error()};
  out.clips = std::move(*clips);
  for (auto& [name, clip] : out.clips) {
    clip.uid = derive_uid(kClipUidPrefix, source + "/animations/" + name);
    clip.skeleton_uid = out.skeleton.uid;
    clip.skeleton_path = out.name + ".mskel";
  }
  // Each clip keeps its animation's name, folders included ("emotes/angry"): its file is that path in
  // the clips folder, escaped where a file system would refuse it (clip_names.hpp).
  std::vector<std::string> names;
  for (const auto& entry : out.clips) {
    if (entry.first.empty())
      return Unexpected{Error{file, "animations", {}, "an animation has an empty name: a clip needs one"}};
    names.push_back(entry.first);
  }
  if (auto conflict = clip_name_conflict(names))
    return Unexpected{Error{file, "animations." + conflict->second, {},
                            "animations " + in_quotes(conflict->first) + " and " + in_quotes(conflict->second) +
                                " differ only by case (or one is a folder of the other's path): their clip files would "
                                "be one on a file system that ignores case; rename one in Spine"}};
  return out;
}

Status unpack_spine_images(SpineImport& import, const SpineAtlas& atlas, const std::string& atlas_file,
                           const std::function<Expected<imaging::Image>(const SpineAtlasPage&)>& load_page) {
  std::map<const SpineAtlasPage*, imaging::Image> pages;
  std::set<const SpineAtlasRegion*> used;
  // Spine draws a region over its whole original image: cut to its opaque pixels only when the packer
  // stripped whitespace. The build follows the atlas: it trims when any region was stripped.
  bool stripped = false;
  for (ImageEntry& entry : import.skeleton.images) {
    const SpineAtlasPage* page = nullptr;
    const SpineAtlasRegion* region = region_for(atlas, entry.name, &page);
    if (!region) {
      import.notes.push_back({fs::path(atlas_file).filename().string(),
                              "no region " + in_quotes(entry.name) + " in the atlas: image " + in_quotes(entry.name) + " is missing"});
      continue;
    }
    used.insert(region);
    stripped = stripped || region->original_width > region->width || region->original_height > region->height;
    auto it = pages.find(page);
    if (it == pages.end()) {
      Expected<imaging::Image> image = load_page(*page);
      if (!image) return Unexpected{image.error()};
      it = pages.emplace(page, std::move(*image)).first;
    }
    Expected<imaging::Image> image = unpack_region(it->second, *page, *region, atlas_file);
    if (!image) return Unexpected{image.error()};
    entry.source = fs::path(atlas_file).filename().string() + ":" + region->name +
                   (region->index >= 0 ? "[" + std::to_string(region->index) + "]" : "");
    for (const auto& [key, value] : region->values)
      import.notes.push_back({fs::path(atlas_file).filename().string() + ":" + std::to_string(region->line),
                              "region " + in_quotes(region->name) + ": \"" + key + ": " + value + "\" is not imported"});
    import.images.emplace_back(entry.name, std::move(*image));
  }
  if (!used.empty()) import.skeleton.import.trim = stripped;
  return {};
}

Expected<SpineImport> import_spine(const SpineImportOptions& options) {
  const std::string& file = options.json_path;
  if (lower(fs::path(file).extension().string()) == ".skel")
    return Unexpected{Error{file, {}, {},
                            "binary .skel exports are not read: export JSON from Spine (Export, JSON) and import that"}};
  Expected<std::string> text = read_file(file);
  if (!text) return Unexpected{text.error()};
  if (!text->empty() && text->front() != '{' && text->find('\0') != std::string::npos)
    return Unexpected{Error{file, {}, {}, "this is not JSON (a binary .skel export?): export JSON from Spine"}};
  Expected<SpineImport> import = convert_spine(*text, file);
  if (!import) return import;
  if (import->skeleton.images.empty() && options.atlas_path.empty()) return import;
  Expected<std::string> atlas_path = locate_atlas(options);
  if (!atlas_path) return Unexpected{atlas_path.error()};
  if (atlas_path->empty())
    return Unexpected{Error{file, {}, {},
                            "the attachments use " + std::to_string(import->skeleton.images.size()) +
                                " images but there is no .atlas beside the JSON: name one with --atlas"}};
  Expected<std::string> atlas_text = read_file(*atlas_path);
  if (!atlas_text) return Unexpected{atlas_text.error()};
  Expected<SpineAtlas> atlas = parse_atlas(*atlas_text, *atlas_path);
  if (!atlas) return Unexpected{atlas.error()};
  const fs::path atlas_dir = fs::path(*atlas_path).parent_path();
  const std::string atlas_file = *atlas_path;
  Status unpacked = unpack_spine_images(*import, *atlas, atlas_file, [&](const SpineAtlasPage& page) -> Expected<imaging::Image> {
    const fs::path page_path = atlas_dir / page.file;
    std::error_code ec;
    if (!fs::is_regular_file(page_path, ec))
      return Unexpected{Error{atlas_file, {}, TextPosition{page.line, 1},
                              "page image " + in_quotes(page.file) + " is missing (looked for " + page_path.string() + ")"}};
    return imaging::read_png(page_path.string());
  });
  if (!unpacked) return Unexpected{unpacked.error()};
  return import;
}

Status write_spine_import(const SpineImport& import, const std::string& out_dir) {
  std::error_code ec;
  const fs::path out(out_dir);
  fs::create_directories(out, ec);
  if (ec) return Unexpected{Error{out_dir, {}, {}, "cannot create the folder: " + ec.message()}};
  if (auto written = write_images((out / import.skeleton.import.images).string(), import.images); !written)
    return Unexpected{written.error()};
  if (Status s = save_skeleton(import.skeleton, (out / (import.name + ".mskel")).string()); !s) return s;
  const fs::path clips = out / (import.name + ".clips");
  for (const auto& [name, clip] : import.clips) {
    const fs::path manim = clips / (clip_file_stem(name) + ".manim");
    fs::create_directories(manim.parent_path(), ec);
    if (ec) return Unexpected{Error{manim.parent_path().string(), {}, {}, "cannot create the folder: " + ec.message()}};
    if (Status s = save_clip(clip, manim.string()); !s) return s;
  }
  const std::string header = "Spine import report: " + import.name + " (Spine " +
                             (import.spine_version.empty() ? std::string("version unknown") : import.spine_version) + ")";
  if (auto written = write_file_if_changed((out / "import-report.txt").string(), import_report_text(header, import.notes));
      !written)
    return Unexpected{written.error()};
  return {};
}

std::string import_summary(const SpineImport& import) {
  std::size_t attachments = 0;
  for (const Skin& s : import.skeleton.skins) attachments += s.attachments.size();
  const auto n = [](std::size_t v, const char* word) { return std::to_string(v) + " " + word + (v == 1 ? "" : "s"); };
  return "imported " + import.name + ": " + n(import.skeleton.bones.size(), "bone") + ", " +
         n(import.skeleton.slots.size(), "slot") + ", " + n(import.skeleton.skins.size(), "skin") + ", " +
         n(attachments, "attachment") + ", " + n(import.clips.size(), "clip") + ", " + n(import.images.size(), "image") +
         "; " + n(import.notes.size(), "report note");
}

}  // namespace mf::offline
