// `mfe skel clip new | duplicate | rename | delete`: a rig's clip files, made, copied, renamed and
// removed by clip name (docs/cli-clips.md):
//
//   mfe skel clip new <mskel> <name> --length <seconds> [--fps <n>] [--loop | --pingpong]
//   mfe skel clip duplicate <mskel> <from> <to>
//   mfe skel clip rename <mskel> <from> <to> [--update-graphs]
//   mfe skel clip delete <mskel> <name> [--force] [--update-graphs]
//
// A clip is the file "<clips folder>/<name>.manim" (names escaped as docs/format-manim.md says); the
// .mskel does not list its clips, so only clip files change. New files are written canonically and
// atomically; a rename moves the file as it is. Graphs (.mgraph) in the rig's folder name clips: a
// rename or delete that would leave one naming a clip that is gone is refused unless --update-graphs,
// which rewrites those graphs through the graph writer (a delete removes the blend-space members that
// play the clip; a clip state cannot lose its clip, so that case is refused either way).
//
// Exit 0 on success, 1 when the rig or a clip is invalid or the change is refused, 2 on usage errors and
// failed writes.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mf/core/file_io.hpp"
#include "mf/offline/format/clip_format.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/format/uid.hpp"
#include "mf/offline/graph/graph_clip_refs.hpp"
#include "mf/offline/graph/graph_format.hpp"
#include "mf/offline/json/json_writer.hpp"

namespace mf::tools {
namespace {

namespace fs = std::filesystem;
using namespace mf::offline;

constexpr int kRefused = 1, kUsage = 2;

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return code;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string clip_names(const Rig& rig) {
  if (rig.clips.empty()) return "the rig has no clips";
  std::string out = "the clips are: ";
  for (std::size_t i = 0; i < rig.clips.size(); ++i) out += (i ? ", " : "") + rig.clips[i].name;
  return out;
}

const ClipFile* find_clip(const Rig& rig, const std::string& name) {
  const auto it = std::find_if(rig.clips.begin(), rig.clips.end(), [&](const ClipFile& c) { return c.name == name; });
  return it == rig.clips.end() ? nullptr : &*it;
}

std::string unknown_clip(const Rig& rig, const std::string& name) {
  return rig.path + ": no clip named " + quoted(name) + "; " + clip_names(rig);
}

// A name for a new clip: the rig's rules (check_new_clip_name), and no ".manim" suffix, which is
// almost always a file name typed for a clip name.
std::optional<std::string> new_name_problem(const Rig& rig, const std::string& name, const std::string& replacing) {
  if (name.size() > 6 && name.ends_with(".manim"))
    return rig.path + ": clip names have no .manim suffix (clip " + quoted(name) + " would be the file " +
           quoted(name + ".manim") + "); pass " + quoted(name.substr(0, name.size() - 6));
  if (Status s = check_new_clip_name(rig, name, replacing); !s) return s.error().to_string();
  return std::nullopt;
}

std::size_t key_count(const ClipSource& c) {
  std::size_t n = c.draw_order.times.size() + c.events.times.size();
  for (const CurveTimeline& t : c.curves) n += t.times.size();
  for (const InheritTimeline& t : c.inherits) n += t.times.size();
  for (const AttachmentTimeline& t : c.attachments) n += t.times.size();
  for (const SequenceTimeline& t : c.sequences) n += t.times.size();
  for (const DeformTimeline& t : c.deforms) n += t.times.size();
  for (const PhysicsResetTimeline& t : c.physics_resets) n += t.times.size();
  return n;
}

// Writes a new clip file, making its folders.
Status write_new_clip(const ClipSource& clip, const std::string& path) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  if (ec) return Unexpected{Error{path, {}, {}, "cannot make its folder: " + ec.message()}};
  return write_file_atomic(path, write_clip(clip));
}

// Removes the folders a moved or deleted clip leaves empty, up to the clips folder (kept).
void remove_empty_folders(const std::string& clip_path, const std::string& clips_folder) {
  const fs::path top = fs::path(clips_folder).lexically_normal();
  std::error_code ec;
  for (fs::path folder = fs::path(clip_path).parent_path().lexically_normal();
       !folder.empty() && folder != top && folder.string().size() > top.string().size(); folder = folder.parent_path()) {
    if (!fs::is_empty(folder, ec) || ec) return;
    fs::remove(folder, ec);
    if (ec) return;
  }
}

// A graph in the rig's folder with the places it plays one clip.
struct GraphUse {
  std::string path;
  GraphSource graph;
  std::vector<GraphClipRef> refs;
};

// The graphs beside the rig (its folder, not sub-folders) that name `clip`. A graph made for another
// skeleton (its skeleton.uid set to another uid) is left alone; one that does not read is reported and
// skipped.
std::vector<GraphUse> graphs_using(const Rig& rig, const std::string& clip) {
  std::vector<std::string> files;
  fs::path folder = fs::path(rig.path).parent_path();
  if (folder.empty()) folder = ".";
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".mgraph" && it->is_regular_file(ec))
      files.push_back((fs::path(rig.path).parent_path() / it->path().filename()).string());
  std::sort(files.begin(), files.end());
  std::vector<GraphUse> out;
  for (const std::string& file : files) {
    Expected<GraphSource> graph = read_graph_file(file);
    if (!graph) {
      std::fprintf(stderr, "warning: %s does not read, so the clips it names were not checked: %s\n", file.c_str(),
                   graph.error().to_string().c_str());
      continue;
    }
    if (!graph->skeleton_uid.empty() && graph->skeleton_uid != rig.skeleton.uid) continue;
    std::vector<GraphClipRef> refs = find_clip_refs(*graph, clip);
    if (!refs.empty()) out.push_back({file, std::move(graph).value(), std::move(refs)});
  }
  return out;
}

// `locomotion.mgraph:22:17 (member 1 of blend1d state "locomotion" of layer "base")`, one per use.
std::string uses_text(const std::vector<GraphUse>& uses) {
  std::string out;
  for (const GraphUse& g : uses)
    for (const GraphClipRef& r : g.refs) {
      out += out.empty() ? "" : ", ";
      out += g.path;
      if (r.source.position.known())
        out += ":" + std::to_string(r.source.position.line) + ":" + std::to_string(r.source.position.column);
      out += " (" + r.describe() + ")";
    }
  return out;
}

// ---- new ----------------------------------------------------------------------------------------

struct NewOptions {
  std::string mskel, name;
  float length = 0;
  std::optional<int> fps;
  bool loop = false, pingpong = false;
};

int run_new(const NewOptions& o) {
  if (!std::isfinite(o.length) || o.length < 0) return fail("--length must be a number of seconds >= 0", kUsage);
  if (o.fps && *o.fps < 1) return fail("--fps must be 1 or more", kUsage);
  if (o.loop && o.pingpong) return fail("pass --loop or --pingpong, not both", kUsage);
  Expected<Rig> rig = load_rig(o.mskel);
  if (!rig) return fail(rig.error().to_string(), kRefused);
  if (auto problem = new_name_problem(*rig, o.name, {})) return fail(*problem, kRefused);

  ClipSource clip;
  clip.uid = make_uid(kClipUidPrefix);
  clip.skeleton_uid = rig->skeleton.uid;
  clip.skeleton_path = fs::path(o.mskel).filename().string();
  clip.length = o.length;
  clip.fps = o.fps.value_or(rig->skeleton.fps);
  clip.loop = o.pingpong ? LoopMode::PingPong : o.loop ? LoopMode::Linear : LoopMode::None;
  const std::string path = clip_file_path(*rig, o.name);
  if (Status s = write_new_clip(clip, path); !s) return fail(s.error().to_string(), kUsage);
  std::printf("created clip %s: %s (length %s s, fps %d, loop %s)\n", quoted(o.name).c_str(), path.c_str(),
              json::format_float(clip.length).c_str(), clip.fps, to_string(clip.loop));
  return 0;
}

// ---- duplicate ----------------------------------------------------------------------------------

struct PairOptions {
  std::string mskel, from, to;
  bool update_graphs = false;
};

int run_duplicate(const PairOptions& o) {
  Expected<Rig> rig = load_rig(o.mskel);
  if (!rig) return fail(rig.error().to_string(), kRefused);
  if (!find_clip(*rig, o.from)) return fail(unknown_clip(*rig, o.from), kRefused);
  if (auto problem = new_name_problem(*rig, o.to, {})) return fail(*problem, kRefused);
  Expected<ClipSource> clip = load_clip(*rig, o.from);
  if (!clip) return fail(clip.error().to_string() + " (fix the clip before duplicating it)", kRefused);
  clip->uid = make_uid(kClipUidPrefix);  // a copy is a clip of its own
  const std::string path = clip_file_path(*rig, o.to);
  if (Status s = write_new_clip(*clip, path); !s) return fail(s.error().to_string(), kUsage);
  std::printf("duplicated clip %s as %s: %s\n", quoted(o.from).c_str(), quoted(o.to).c_str(), path.c_str());
  return 0;
}

// ---- rename -------------------------------------------------------------------------------------

int run_rename(const PairOptions& o) {
  Expected<Rig> rig = load_rig(o.mskel);
  if (!rig) return fail(rig.error().to_string(), kRefused);
  const ClipFile* from = find_clip(*rig, o.from);
  if (!from) return fail(unknown_clip(*rig, o.from), kRefused);
  if (o.from == o.to) return fail("the clip is already named " + quoted(o.to), kRefused);
  if (auto problem = new_name_problem(*rig, o.to, o.from)) return fail(*problem, kRefused);
  const std::string to_path = clip_file_path(*rig, o.to);
  std::error_code ec;
  // Only a rename that changes just the case of letters may find its own file there.
  if (fs::exists(to_path, ec) && !fs::equivalent(to_path, from->path, ec))
    return fail(to_path + " exists but is not a clip of this rig; move it away or pick another name", kRefused);

  std::vector<GraphUse> uses = graphs_using(*rig, o.from);
  if (!uses.empty() && !o.update_graphs)
    return fail("clip " + quoted(o.from) + " is used by " + uses_text(uses) +
                    "; pass --update-graphs to rename it there too (nothing was changed)",
                kRefused);
  for (GraphUse& g : uses) rename_clip_refs(g.graph, o.from, o.to);

  fs::create_directories(fs::path(to_path).parent_path(), ec);
  if (ec) return fail(to_path + ": cannot make its folder: " + ec.message(), kUsage);
  fs::rename(from->path, to_path, ec);
  if (ec) return fail("cannot move " + from->path + " to " + to_path + ": " + ec.message(), kUsage);
  for (std::size_t i = 0; i < uses.size(); ++i) {
    if (Status s = save_graph(uses[i].graph, uses[i].path); !s) {
      // Put the clip back so the graphs not yet written still name a clip that exists.
      std::error_code back;
      fs::rename(to_path, from->path, back);
      return fail(s.error().to_string() + (i > 0 ? " (the graphs before it were updated" : " (") +
                      (back ? "; the clip stays at " + to_path + ")" : "; the clip was moved back)"),
                  kUsage);
    }
  }
  remove_empty_folders(from->path, clips_folder(rig->skeleton, rig->path));
  std::printf("renamed clip %s to %s: %s -> %s\n", quoted(o.from).c_str(), quoted(o.to).c_str(), from->path.c_str(),
              to_path.c_str());
  for (const GraphUse& g : uses)
    std::printf("updated %s: %zu use%s renamed\n", g.path.c_str(), g.refs.size(), g.refs.size() == 1 ? "" : "s");
  return 0;
}

// ---- delete -------------------------------------------------------------------------------------

struct DeleteOptions {
  std::string mskel, name;
  bool force = false, update_graphs = false;
};

int run_delete(const DeleteOptions& o) {
  Expected<Rig> rig = load_rig(o.mskel);
  if (!rig) return fail(rig.error().to_string(), kRefused);
  const ClipFile* file = find_clip(*rig, o.name);
  if (!file) return fail(unknown_clip(*rig, o.name), kRefused);

  if (!o.force) {
    Expected<ClipSource> clip = load_clip(*rig, o.name);
    if (!clip)
      return fail(clip.error().to_string() + "; the clip does not read, so its keys are unknown: pass --force to delete it",
                  kRefused);
    if (const std::size_t keys = key_count(*clip); keys > 0)
      return fail("clip " + quoted(o.name) + " (" + file->path + ") has " + std::to_string(keys) + " key" +
                      (keys == 1 ? "" : "s") + "; pass --force to delete it with its keys",
                  kRefused);
  }

  std::vector<GraphUse> uses = graphs_using(*rig, o.name);
  std::vector<int> removed(uses.size(), 0);
  const std::string used = "clip " + quoted(o.name) + " is used by " + uses_text(uses);
  for (std::size_t i = 0; i < uses.size(); ++i) {
    Expected<int> r = remove_clip_members(uses[i].graph, o.name);
    if (!r) {
      const TextPosition at = r.error().position;
      return fail(uses[i].path + (at.known() ? ":" + std::to_string(at.line) + ":" + std::to_string(at.column) : "") +
                      ": " + r.error().message + "; clip " + quoted(o.name) +
                      " cannot be deleted, not even with --update-graphs: point that state at another clip or remove "
                      "it from the graph first (nothing was changed)",
                  kRefused);
    }
    removed[i] = *r;
  }
  if (!uses.empty() && !o.update_graphs)
    return fail(used + "; pass --update-graphs to remove those blend-space members from the graphs (nothing was changed)",
                kRefused);
  // Graphs first: should a write fail, the clip is still there for the graphs that still name it.
  for (const GraphUse& g : uses)
    if (Status s = save_graph(g.graph, g.path); !s) return fail(s.error().to_string() + " (the clip was not deleted)", kUsage);
  std::error_code ec;
  fs::remove(file->path, ec);
  if (ec) return fail("cannot delete " + file->path + ": " + ec.message(), kUsage);
  remove_empty_folders(file->path, clips_folder(rig->skeleton, rig->path));
  std::printf("deleted clip %s: %s\n", quoted(o.name).c_str(), file->path.c_str());
  for (std::size_t i = 0; i < uses.size(); ++i)
    std::printf("updated %s: %d blend member%s removed\n", uses[i].path.c_str(), removed[i], removed[i] == 1 ? "" : "s");
  return 0;
}

}  // namespace

void add_skel_clip(CLI::App& skel, int& exit_code) {
  CLI::App* clip = skel.add_subcommand(
      "clip",
      "Make, copy, rename and delete a rig's clips (<rig>.clips/<name>.manim) by name. docs/cli-clips.md has the "
      "syntax and examples.");
  clip->require_subcommand(1);

  auto n = std::make_shared<NewOptions>();
  CLI::App* make = clip->add_subcommand(
      "new", "Create an empty clip. Exit 1 when the name is taken or clashes with another clip's file, 2 on usage errors.");
  make->add_option("mskel", n->mskel, "The rig (.mskel)")->required()->check(CLI::ExistingFile);
  make->add_option("name", n->name, "The clip's name: its path in the clips folder without .manim (emotes/angry)")
      ->required();
  make->add_option("--length", n->length, "Length in seconds (>= 0)")->required();
  make->add_option("--fps", n->fps, "Editor snapping rate (default: the rig's fps)");
  make->add_flag("--loop", n->loop, "The clip loops (loop Linear); without --loop or --pingpong it plays once (None)");
  make->add_flag("--pingpong", n->pingpong, "The clip plays forwards and backwards (loop PingPong)");
  make->callback([n, &exit_code] { exit_code = run_new(*n); });

  auto d = std::make_shared<PairOptions>();
  CLI::App* dup = clip->add_subcommand(
      "duplicate", "Copy a clip under a new name (with a new uid), written canonically. Exit 1 when the source is "
                   "missing or invalid or the new name is taken.");
  dup->add_option("mskel", d->mskel, "The rig (.mskel)")->required()->check(CLI::ExistingFile);
  dup->add_option("from", d->from, "The clip to copy")->required();
  dup->add_option("to", d->to, "The new clip's name")->required();
  dup->callback([d, &exit_code] { exit_code = run_duplicate(*d); });

  auto r = std::make_shared<PairOptions>();
  CLI::App* ren = clip->add_subcommand(
      "rename", "Rename a clip (its file moves, unchanged). Refused when a .mgraph in the rig's folder names the clip, "
                "unless --update-graphs. Exit 1 when refused.");
  ren->add_option("mskel", r->mskel, "The rig (.mskel)")->required()->check(CLI::ExistingFile);
  ren->add_option("from", r->from, "The clip's name")->required();
  ren->add_option("to", r->to, "Its new name")->required();
  ren->add_flag("--update-graphs", r->update_graphs, "Rename the clip in the graphs beside the rig too");
  ren->callback([r, &exit_code] { exit_code = run_rename(*r); });

  auto x = std::make_shared<DeleteOptions>();
  CLI::App* del = clip->add_subcommand(
      "delete", "Delete a clip. Refused when it has keys (unless --force) or when a .mgraph in the rig's folder names it "
                "(unless --update-graphs, which removes the blend-space members that play it; a state that plays it "
                "alone is always refused). Exit 1 when refused.");
  del->add_option("mskel", x->mskel, "The rig (.mskel)")->required()->check(CLI::ExistingFile);
  del->add_option("name", x->name, "The clip's name")->required();
  del->add_flag("--force", x->force, "Delete it even though it has keys (or does not read)");
  del->add_flag("--update-graphs", x->update_graphs, "Remove the blend-space members that play it from the graphs");
  del->callback([x, &exit_code] { exit_code = run_delete(*x); });
}

}  // namespace mf::tools
