#include "mf/editor/core/document.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/clip_names.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/format/uid.hpp"
#include "mf/offline/graph/graph_check.hpp"
#include "mf/offline/graph/graph_format.hpp"

namespace mf::editor {
namespace fs = std::filesystem;

namespace {

// Two paths that name one file, whether or not they exist yet.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec1, ec2;
  const fs::path ca = fs::weakly_canonical(a, ec1), cb = fs::weakly_canonical(b, ec2);
  if (ec1 || ec2) return fs::path(a).lexically_normal() == fs::path(b).lexically_normal();
  return ca == cb;
}

// The .mgraph files under the rig's folder that name this rig as their skeleton. Unreadable folders
// and graphs are skipped: the graphs are listed for the application, not edited here.
std::vector<std::string> find_graphs(const std::string& mskel_path) {
  std::vector<std::string> out;
  fs::path folder = fs::path(mskel_path).parent_path();
  if (folder.empty()) folder = ".";
  std::error_code ec;
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.extension() != ".mgraph" || !it->is_regular_file(ec)) continue;
    Expected<offline::GraphSource> graph = offline::read_graph_file(p.string());
    if (!graph) continue;
    const std::string skeleton = offline::graph_skeleton_path(*graph, p.string());
    if (!skeleton.empty() && same_file(skeleton, mskel_path)) out.push_back(p.string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string clip_path_in(const std::string& folder, const std::string& name) {
  return (fs::path(folder) / (offline::clip_file_stem(name) + ".manim")).string();
}

}  // namespace

Expected<Document> Document::open(const std::string& mskel_path) {
  Expected<offline::Rig> rig = offline::load_rig(mskel_path);
  if (!rig) return Unexpected{rig.error()};
  Document doc;
  doc.path_ = mskel_path;
  for (const offline::ClipFile& file : rig->clips) {
    Expected<offline::ClipSource> clip = offline::load_clip(*rig, file.name);
    if (!clip) {
      doc.unread_clips_.push_back({file.name, file.path, clip.error()});
      continue;
    }
    clip->positions = {};
    const auto id = static_cast<FileId>(doc.clips_.size() + 1);
    doc.clips_.push_back({id, file.name, file.path, std::move(clip).value()});
  }
  doc.skeleton_ = std::move(rig->skeleton);
  doc.skeleton_.positions = {};
  doc.graph_paths_ = find_graphs(mskel_path);
  doc.files_.assign(doc.clips_.size() + 1, FileState{0, 0});  // everything as saved
  return doc;
}

Document Document::new_rig(std::string_view root_bone) {
  Document doc;
  doc.skeleton_.uid = offline::make_uid(offline::kSkeletonUidPrefix);
  offline::Bone root;
  root.name = std::string(root_bone);
  doc.skeleton_.bones.push_back(std::move(root));
  doc.files_.assign(1, FileState{0, kNeverSaved});
  return doc;
}

const DocumentClip* Document::find_clip(std::string_view name) const {
  for (const DocumentClip& c : clips_)
    if (c.name == name) return &c;
  return nullptr;
}

std::string Document::images_folder() const {
  const fs::path base = fs::path(path_).parent_path();
  return (base / skeleton_.import.images).lexically_normal().string();
}

Document::FileState& Document::state(FileId file) {
  if (file >= files_.size()) files_.resize(file + 1, FileState{0, kNeverSaved});
  return files_[file];
}

const Document::FileState& Document::state(FileId file) const {
  static const FileState unknown{0, 0};
  return file < files_.size() ? files_[file] : unknown;
}

bool Document::dirty() const { return !dirty_files().empty(); }

bool Document::dirty(FileId file) const {
  const FileState& s = state(file);
  return s.current != s.saved;
}

std::vector<FileId> Document::dirty_files() const {
  std::vector<FileId> out;
  if (dirty(kRigFile)) out.push_back(kRigFile);
  for (const DocumentClip& c : clips_)
    if (dirty(c.file)) out.push_back(c.file);
  return out;
}

std::string Document::file_path(FileId file) const {
  if (file == kRigFile) return path_;
  for (const DocumentClip& c : clips_)
    if (c.file == file) return c.path;
  return "";
}

std::string Document::skeleton_text() const { return offline::write_skeleton(skeleton_); }

std::string Document::clip_text(std::size_t clip) const { return offline::write_clip(clips_.at(clip).clip); }

Status Document::save_file(FileId file) {
  if (path_.empty())
    return Unexpected{Error{"", "", {}, "the rig has no file yet: save it with a path first (save as)"}};
  Status written;
  if (file == kRigFile) {
    written = offline::save_skeleton(skeleton_, path_);
  } else {
    auto clip = std::find_if(clips_.begin(), clips_.end(), [&](const DocumentClip& c) { return c.file == file; });
    if (clip == clips_.end()) return {};
    std::error_code ec;
    fs::create_directories(fs::path(clip->path).parent_path(), ec);
    if (ec)
      return Unexpected{Error{clip->path, "", {}, "cannot create the clip's folder: " + ec.message()}};
    written = offline::save_clip(clip->clip, clip->path);
  }
  if (!written) return written;
  FileState& s = state(file);
  s.saved = s.current;
  return {};
}

Status Document::save() {
  for (FileId file : dirty_files())
    if (Status s = save_file(file); !s) return s;
  return {};
}

Status Document::save_all() {
  if (Status s = save_file(kRigFile); !s) return s;
  for (const DocumentClip& c : clips_)
    if (Status s = save_file(c.file); !s) return s;
  return {};
}

Status Document::save_as(const std::string& mskel_path) {
  if (mskel_path.empty()) return Unexpected{Error{"", "", {}, "save as needs a file path"}};
  const std::string old_path = path_;
  const std::vector<FileState> old_files = files_;
  std::vector<std::string> old_clip_paths;
  const std::string folder = offline::clips_folder(skeleton_, mskel_path);
  path_ = mskel_path;
  for (DocumentClip& c : clips_) {
    old_clip_paths.push_back(c.path);
    c.path = clip_path_in(folder, c.name);
  }
  Status s = save_all();
  if (!s) {
    // The document keeps its old files, which still hold what they held.
    path_ = old_path;
    for (std::size_t i = 0; i < clips_.size(); ++i) clips_[i].path = old_clip_paths[i];
    files_ = old_files;
  }
  return s;
}

offline::SkeletonSource& Document::edit_skeleton() {
  touch(kRigFile);
  return skeleton_;
}

offline::ClipSource& Document::edit_clip(std::size_t clip) {
  DocumentClip& c = clips_.at(clip);
  touch(c.file);
  return c.clip;
}

RigModel Document::model(bool with_clips) const {
  RigModel m;
  m.skeleton = skeleton_;
  if (with_clips) {
    m.clips.reserve(clips_.size());
    for (const DocumentClip& c : clips_) m.clips.push_back(c.clip);
  }
  return m;
}

void Document::touch(FileId file) {
  if (!change_open_) return;
  if (std::find(touched_.begin(), touched_.end(), file) == touched_.end()) touched_.push_back(file);
}

void Document::begin_change() {
  change_open_ = true;
  touched_.clear();
}

FileChanges Document::end_change() {
  change_open_ = false;
  FileChanges out;
  for (FileId file : touched_) {
    FileState& s = state(file);
    out.push_back({file, s.current, next_state_});
    s.current = next_state_++;
  }
  touched_.clear();
  if (!out.empty()) ++revision_;
  return out;
}

void Document::restore_files(const FileChanges& changes, bool after) {
  for (const FileChange& c : changes) state(c.file).current = after ? c.after : c.before;
  ++revision_;
}

}  // namespace mf::editor
