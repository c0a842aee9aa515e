// `mfe skel automesh <mskel> --slot s [--attachment a] [--skin k] [--density d] [--alpha-threshold a]
// [--padding p] [--all] [--json]`: replaces Region attachments with meshes made from their images'
// alpha (offline/mesh/mesh_from_region.hpp) and saves the .mskel in canonical form, atomically. For
// each attachment it prints the mesh's size and the histogram of its triangles' smallest angles next
// to ear clipping's of the same outline.
//
// Without --attachment the slot's setup attachment is meshed; without --skin, the first skin that
// holds it. --all meshes every Region of every skin (regions that show a sequence are skipped and
// listed). Exit 0 when every attachment was meshed and the file saved, 1 when the rig or an
// attachment cannot be meshed (nothing is written then), 2 on usage errors or a failed save.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mf/offline/format/rig_files.hpp"
#include "mf/offline/format/skeleton_format.hpp"
#include "mf/offline/json/json_writer.hpp"
#include "mf/offline/mesh/auto_mesh.hpp"
#include "mf/offline/mesh/mesh_from_region.hpp"
#include "mf/offline/mesh/triangulator.hpp"

namespace mf::tools {
namespace {

using namespace mf::offline;

struct AutomeshOptions {
  std::string mskel;
  std::string slot;
  std::string attachment;
  std::string skin;
  bool all = false;
  bool json = false;
  AutoMeshOptions mesh;
};

struct Target {
  int skin = 0, slot = 0;
  std::string name;
};

struct Meshed {
  Target target;
  std::string image;
  int vertices = 0, hull = 0, triangles = 0, ear_triangles = 0;
  AngleHistogram angles, ear_angles;
};

int fail(const std::string& message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  return 1;
}

std::string names(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& n : list) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string in_quotes(const std::string& s) { return "\"" + s + "\""; }

// The attachments to mesh, or an error message.
std::variant<std::vector<Target>, std::string> targets(const SkeletonSource& s, const AutomeshOptions& o,
                                                       std::vector<std::string>& skipped) {
  std::vector<Target> out;
  if (o.all) {
    for (std::size_t k = 0; k < s.skins.size(); ++k)
      for (const Attachment& a : s.skins[k].attachments) {
        const auto* region = std::get_if<RegionAttachment>(&a.data);
        if (!region) continue;
        const std::string where = "skin " + in_quotes(s.skins[k].name) + ", slot " +
                                  in_quotes(s.slots[static_cast<std::size_t>(a.slot)].name) + ", attachment " + in_quotes(a.name);
        if (region->sequence) {
          skipped.push_back(where + ": shows a sequence");
          continue;
        }
        out.push_back({static_cast<int>(k), a.slot, a.name});
      }
    return out;
  }
  const int slot = s.find_slot(o.slot);
  if (slot < 0) {
    std::vector<std::string> slots;
    for (const Slot& sl : s.slots) slots.push_back(sl.name);
    return "no slot named " + in_quotes(o.slot) + " (slots: " + names(slots) + ")";
  }
  const std::string name = o.attachment.empty() ? s.slots[static_cast<std::size_t>(slot)].attachment : o.attachment;
  if (name.empty()) return "slot " + in_quotes(o.slot) + " has no setup attachment; name one with --attachment";
  int skin = -1;
  if (!o.skin.empty()) {
    skin = s.find_skin(o.skin);
    if (skin < 0) {
      std::vector<std::string> skins;
      for (const Skin& k : s.skins) skins.push_back(k.name);
      return "no skin named " + in_quotes(o.skin) + " (skins: " + names(skins) + ")";
    }
  } else {
    for (std::size_t k = 0; k < s.skins.size() && skin < 0; ++k)
      for (const Attachment& a : s.skins[k].attachments)
        if (a.slot == slot && a.name == name) skin = static_cast<int>(k);
    if (skin < 0) return "no skin holds attachment " + in_quotes(name) + " of slot " + in_quotes(o.slot);
  }
  out.push_back({skin, slot, name});
  return out;
}

std::vector<std::array<std::uint32_t, 3>> unsigned_triangles(const std::vector<std::array<int, 3>>& triangles) {
  std::vector<std::array<std::uint32_t, 3>> out;
  for (const auto& t : triangles)
    out.push_back({static_cast<std::uint32_t>(t[0]), static_cast<std::uint32_t>(t[1]), static_cast<std::uint32_t>(t[2])});
  return out;
}

std::string degrees(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

void add(AngleHistogram& total, const AngleHistogram& h) {
  if (total.counts.size() < h.counts.size()) total.counts.resize(h.counts.size(), 0);
  for (std::size_t i = 0; i < h.counts.size(); ++i) total.counts[i] += h.counts[i];
  total.smallest = std::min(total.smallest, h.smallest);
}

void print_histograms(const char* indent, const AngleHistogram& mesh, const AngleHistogram& ear) {
  std::string header = std::string(indent) + "smallest angle (deg)";
  std::string row_mesh = std::string(indent) + "auto mesh           ";
  std::string row_ear = std::string(indent) + "ear clipping        ";
  const std::size_t bins = std::max(mesh.counts.size(), ear.counts.size());
  for (std::size_t i = 0; i < bins; ++i) {
    char head[32], a[32], b[32];
    // The last bin holds 60° alone (equilateral triangles).
    const double low = static_cast<double>(i) * mesh.bin_degrees;
    const std::string label = low >= 60 ? "60" : json::format_float(static_cast<float>(low)) + "-" +
                                                     json::format_float(static_cast<float>(low + mesh.bin_degrees));
    std::snprintf(head, sizeof head, " %5s", label.c_str());
    std::snprintf(a, sizeof a, " %5d", i < mesh.counts.size() ? mesh.counts[i] : 0);
    std::snprintf(b, sizeof b, " %5d", i < ear.counts.size() ? ear.counts[i] : 0);
    header += head;
    row_mesh += a;
    row_ear += b;
  }
  std::printf("%s\n%s\n%s\n", header.c_str(), row_mesh.c_str(), row_ear.c_str());
}

void write_histogram(json::Writer& w, const AngleHistogram& h) {
  w.begin_object(json::Layout::Inline);
  w.key("smallest");
  w.number(static_cast<float>(h.smallest));
  w.key("counts");
  w.begin_array(json::Layout::Inline);
  for (int c : h.counts) w.integer(c);
  w.end_array();
  w.end_object();
}

std::string to_json(const std::string& file, const std::vector<Meshed>& meshed, const std::vector<std::string>& skipped,
                    const SkeletonSource& s) {
  json::Writer w;
  w.begin_object();
  w.key("file");
  w.string(file);
  w.key("binDegrees");
  w.number(meshed.empty() ? 5.0f : static_cast<float>(meshed[0].angles.bin_degrees));
  w.key("attachments");
  w.begin_array();
  for (const Meshed& m : meshed) {
    w.begin_object();
    w.key("skin");
    w.string(s.skins[static_cast<std::size_t>(m.target.skin)].name);
    w.key("slot");
    w.string(s.slots[static_cast<std::size_t>(m.target.slot)].name);
    w.key("attachment");
    w.string(m.target.name);
    w.key("image");
    w.string(m.image);
    w.key("vertices");
    w.integer(m.vertices);
    w.key("hull");
    w.integer(m.hull);
    w.key("triangles");
    w.integer(m.triangles);
    w.key("angles");
    write_histogram(w, m.angles);
    w.key("earClipTriangles");
    w.integer(m.ear_triangles);
    w.key("earClipAngles");
    write_histogram(w, m.ear_angles);
    w.end_object();
  }
  w.end_array();
  w.key("skipped");
  w.begin_array();
  for (const std::string& k : skipped) w.string(k);
  w.end_array();
  w.end_object();
  return w.finish();
}

int run_automesh(const AutomeshOptions& options) {
  Expected<Rig> rig = load_rig(options.mskel);
  if (!rig) return fail(rig.error().to_string());
  SkeletonSource& skeleton = rig->skeleton;
  std::vector<std::string> skipped;
  auto chosen = targets(skeleton, options, skipped);
  if (const std::string* why = std::get_if<std::string>(&chosen)) return fail(options.mskel + ": " + *why);
  const ImageSource images = images_in_folder(images_folder(*rig));

  std::vector<Meshed> meshed;
  for (const Target& t : std::get<std::vector<Target>>(chosen)) {
    Expected<RegionMesh> made = mesh_region(skeleton, t.skin, t.slot, t.name, images, options.mesh);
    if (!made) {
      Error e = made.error();
      e.file = options.mskel;
      return fail(e.to_string());
    }
    const AutoMesh& mesh = made->mesh;
    Meshed m{t, made->image, static_cast<int>(mesh.positions.size()), mesh.hull, static_cast<int>(mesh.triangles.size()), 0,
             min_angle_histogram(mesh.positions, unsigned_triangles(mesh.triangles)), {}};
    Expected<std::vector<std::array<std::uint32_t, 3>>> ear = ear_clip_domain(outline_domain(mesh));
    if (!ear) return fail(options.mskel + ": ear clipping the outline of " + in_quotes(t.name) + ": " + ear.error().message);
    m.ear_triangles = static_cast<int>(ear->size());
    m.ear_angles = min_angle_histogram(mesh.positions, *ear);
    meshed.push_back(std::move(m));
  }
  if (meshed.empty()) return fail(options.mskel + ": no Region attachment to mesh");

  if (Status saved = save_skeleton(skeleton, options.mskel); !saved) {
    std::fprintf(stderr, "error: %s\n", saved.error().to_string().c_str());
    return 2;
  }

  if (options.json) {
    std::fputs(to_json(options.mskel, meshed, skipped, skeleton).c_str(), stdout);
    return 0;
  }
  AngleHistogram mesh_total, ear_total;
  mesh_total.smallest = ear_total.smallest = 180;
  for (const Meshed& m : meshed) {
    std::printf("skin %s, slot %s, attachment %s (image %s): %d vertices (%d on the hull), %d triangles, smallest angle "
                "%s deg (ear clipping: %d triangles, smallest %s deg)\n",
                in_quotes(skeleton.skins[static_cast<std::size_t>(m.target.skin)].name).c_str(),
                in_quotes(skeleton.slots[static_cast<std::size_t>(m.target.slot)].name).c_str(), in_quotes(m.target.name).c_str(),
                in_quotes(m.image).c_str(), m.vertices, m.hull, m.triangles, degrees(m.angles.smallest).c_str(),
                m.ear_triangles, degrees(m.ear_angles.smallest).c_str());
    print_histograms("  ", m.angles, m.ear_angles);
    add(mesh_total, m.angles);
    add(ear_total, m.ear_angles);
  }
  for (const std::string& k : skipped) std::printf("skipped %s\n", k.c_str());
  if (meshed.size() > 1) {
    std::printf("all %zu meshes: smallest angle %s deg (ear clipping: %s deg)\n", meshed.size(),
                degrees(mesh_total.smallest).c_str(), degrees(ear_total.smallest).c_str());
    print_histograms("  ", mesh_total, ear_total);
  }
  std::printf("%s: %zu Region attachment%s replaced by meshes\n", options.mskel.c_str(), meshed.size(),
              meshed.size() == 1 ? "" : "s");
  return 0;
}

}  // namespace

void add_skel_automesh(CLI::App& skel, int& exit_code) {
  auto options = std::make_shared<AutomeshOptions>();
  CLI::App* cmd = skel.add_subcommand(
      "automesh",
      "Replace Region attachments with meshes made from their images' alpha (marching squares, Douglas-Peucker, "
      "an interior lattice, refined constrained Delaunay) and save the .mskel in canonical form. Prints each "
      "mesh's smallest-angle histogram next to ear clipping's of the same outline. Exit 1 when an attachment "
      "cannot be meshed (nothing is written), 2 on usage errors.");
  cmd->add_option("mskel", options->mskel, "The .mskel file")->required()->check(CLI::ExistingFile);
  CLI::Option* slot = cmd->add_option("--slot", options->slot, "Slot whose attachment to mesh");
  cmd->add_option("--attachment", options->attachment, "Attachment name (default: the slot's setup attachment)")
      ->needs(slot);
  cmd->add_option("--skin", options->skin, "Skin that holds it (default: the first skin that does)")->needs(slot);
  cmd->add_option("--density", options->mesh.density,
                  "Mesh density from 0.1 to 10: interior points about longest side / (6 x density) apart")
      ->check(CLI::Range(0.1, 10.0));
  cmd->add_option("--alpha-threshold", options->mesh.alpha_threshold, "Smallest alpha (1-255) of a pixel inside the mesh")
      ->check(CLI::Range(1, 255));
  cmd->add_option("--padding", options->mesh.padding, "Pixels between the alpha's edge and the outline")
      ->check(CLI::NonNegativeNumber);
  CLI::Option* all = cmd->add_flag("--all", options->all, "Mesh every Region attachment of every skin");
  all->excludes(slot);
  cmd->add_flag("--json", options->json, "Print one JSON object instead of text");
  cmd->callback([options, cmd, &exit_code] {
    if (!options->all && options->slot.empty()) {
      std::fprintf(stderr, "error: give --slot or --all\n%s", cmd->help().c_str());
      exit_code = 2;
      return;
    }
    exit_code = run_automesh(*options);
  });
}

}  // namespace mf::tools
