#include "mf/offline/mesh/mesh_from_region.hpp"

#include <cmath>
#include <filesystem>
#include <numbers>
#include <utility>

#include "mf/imaging/png.hpp"
#include "mf/offline/json/json_path.hpp"

namespace mf::offline {
namespace {

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

}  // namespace

ImageSource images_in_folder(std::string folder) {
  return [folder = std::move(folder)](const std::string& image) {
    return imaging::read_png((std::filesystem::path(folder) / (image + ".png")).string());
  };
}

Expected<RegionMesh> mesh_region(SkeletonSource& skeleton, int skin, int slot, std::string_view attachment,
                                 const ImageSource& images, const AutoMeshOptions& options) {
  const auto fail = [](std::string path, std::string message) {
    return Unexpected{Error{"", std::move(path), {}, std::move(message)}};
  };
  if (skin < 0 || static_cast<std::size_t>(skin) >= skeleton.skins.size())
    return fail("skins", "skin index " + std::to_string(skin) + " is out of range (" +
                             std::to_string(skeleton.skins.size()) + " skins)");
  if (slot < 0 || static_cast<std::size_t>(slot) >= skeleton.slots.size())
    return fail("slots", "slot index " + std::to_string(slot) + " is out of range (" +
                             std::to_string(skeleton.slots.size()) + " slots)");
  Skin& s = skeleton.skins[static_cast<std::size_t>(skin)];
  const std::string& slot_name = skeleton.slots[static_cast<std::size_t>(slot)].name;
  const std::string what = "skin " + in_quotes(s.name) + ", slot " + in_quotes(slot_name) + ", attachment " + in_quotes(attachment);
  const std::string attachments_path = json::path_key(json::path_index("skins", static_cast<std::size_t>(skin)), "attachments");
  std::size_t index = 0;
  while (index < s.attachments.size() && (s.attachments[index].slot != slot || s.attachments[index].name != attachment))
    ++index;
  if (index == s.attachments.size()) return fail(attachments_path, what + ": there is no such attachment");
  Attachment& att = s.attachments[index];
  const std::string path = json::path_index(attachments_path, index);
  const RegionAttachment* region = std::get_if<RegionAttachment>(&att.data);
  if (!region) return fail(path, what + ": is a " + std::string(to_string(att.type())) + ", not a Region");
  if (region->sequence)
    return fail(path, what + ": shows a sequence of " + std::to_string(region->sequence->count) +
                          " images; auto mesh makes a mesh for one image");

  const std::string image_name = region->image.empty() ? att.name : region->image;
  Expected<imaging::Image> image = images(image_name);
  if (!image) return fail(path, what + ": image " + in_quotes(image_name) + ": " + image.error().to_string());
  Expected<AutoMesh> mesh = auto_mesh(*image, options);
  if (!mesh) return fail(path, what + ": image " + in_quotes(image_name) + ": " + mesh.error().message);

  const double w = image->width, h = image->height;
  const double width = region->width > 0 ? region->width : w;
  const double height = region->height > 0 ? region->height : h;
  const double radians = static_cast<double>(region->rotation) * std::numbers::pi / 180.0;
  const double c = std::cos(radians), sn = std::sin(radians);
  MeshAttachment out;
  out.image = region->image;
  out.color = region->color;
  out.width = static_cast<float>(w);
  out.height = static_cast<float>(h);
  out.hull = mesh->hull;
  for (Vec2d p : mesh->positions) {
    out.uvs.push_back(static_cast<float>(p.x / w));
    out.uvs.push_back(static_cast<float>(p.y / h));
    const double lx = (p.x / w - 0.5) * width * region->scale_x, ly = (p.y / h - 0.5) * height * region->scale_y;
    out.vertices.positions.push_back(static_cast<float>(c * lx - sn * ly + region->x));
    out.vertices.positions.push_back(static_cast<float>(sn * lx + c * ly + region->y));
  }
  for (const auto& t : mesh->triangles) out.triangles.insert(out.triangles.end(), t.begin(), t.end());
  for (const auto& e : mesh->edges) out.edges.insert(out.edges.end(), e.begin(), e.end());
  att.data = std::move(out);
  return RegionMesh{std::move(mesh).value(), image_name};
}

}  // namespace mf::offline
