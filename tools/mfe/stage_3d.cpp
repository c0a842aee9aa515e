#include "stage_3d.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "mf/render/forward/mesh_data.hpp"
#include "mf/skel/skeleton_instance.hpp"
#include "mf/skel/skin_composer.hpp"

namespace mf::tools {
namespace {

constexpr float kPixelSize = 0.01f;               // metres per skeleton pixel
constexpr float kAmbient = 0.35f;
constexpr ColorF kGroundColor{0.62f, 0.62f, 0.6f, 1};
constexpr ColorF kPointColor{1, 0.86f, 0.62f, 1};  // warm, against the white sun
constexpr ColorF kSky{0.16f, 0.17f, 0.2f, 1};
constexpr int kPlacementSamples = 32;             // clip samples the placement looks at
constexpr float kFovDegrees = 45;                 // Camera's default
constexpr float kSlotDepthOffset = 0.5f;          // skeleton pixels between consecutive slots
constexpr float kGroundSize = 8;                  // the ground's side over the character's size: the shadow map covers it all

// Comma-separated floats, each finite; empty on any other text.
std::vector<float> parse_floats(const std::string& text) {
  std::vector<float> values;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, ',')) {
    try {
      std::size_t used = 0;
      const float v = std::stof(part, &used);
      while (used < part.size() && part[used] == ' ') ++used;
      if (used != part.size() || !std::isfinite(v)) return {};
      values.push_back(v);
    } catch (const std::exception&) {
      return {};
    }
  }
  if (!text.empty() && text.back() == ',') return {};
  return values;
}

Error option_error(const std::string& option, const std::string& value, const std::string& what) {
  return Error{"", "", {}, option + " \"" + value + "\": " + what};
}

Expected<Vec3> parse_vec3(const std::string& option, const std::string& text, const std::string& meaning) {
  const std::vector<float> v = parse_floats(text);
  if (v.size() != 3) return Unexpected{option_error(option, text, "expected X,Y,Z (" + meaning + ")")};
  return Vec3{v[0], v[1], v[2]};
}

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> names;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, ','))
    if (!part.empty()) names.push_back(part);
  return names;
}

void include(Bounds& into, const Bounds& b) {
  if (b.empty()) return;
  if (into.empty()) {
    into = b;
    return;
  }
  into.min_x = std::min(into.min_x, b.min_x);
  into.min_y = std::min(into.min_y, b.min_y);
  into.max_x = std::max(into.max_x, b.max_x);
  into.max_y = std::max(into.max_y, b.max_y);
}

void hide(skel::SkeletonPose& pose, const skel::SkeletonData& data, const std::vector<std::string>& slots) {
  for (const std::string& name : slots) {
    const int slot = data.find_slot(name);
    if (slot >= 0) skel::set_slot_attachment(pose, slot, "");
  }
}

}  // namespace

Expected<StageSettings> parse_stage_options(const StageOptionText& text) {
  StageSettings s;
  if (!text.camera.empty()) {
    const std::vector<float> v = parse_floats(text.camera);
    const std::string expected = "expected YAW,PITCH[,DISTANCE]: degrees about +Y and above the ground, metres (e.g. 20,15,6)";
    if (v.size() != 2 && v.size() != 3) return Unexpected{option_error("--camera", text.camera, expected)};
    if (!(v[1] > -90 && v[1] < 90)) return Unexpected{option_error("--camera", text.camera, "the pitch must be between -90 and 90 degrees")};
    if (v.size() == 3 && !(v[2] > 0)) return Unexpected{option_error("--camera", text.camera, "the distance must be more than zero")};
    s.orbit.yaw = v[0];
    s.orbit.pitch = v[1];
    if (v.size() == 3) s.orbit.distance = v[2];
  }
  if (!text.light.empty()) {
    auto sun = parse_vec3("--light", text.light, "the direction the sunlight travels, e.g. 0.5,-1,-0.6");
    if (!sun) return Unexpected{sun.error()};
    if (!(sun->y < 0)) return Unexpected{option_error("--light", text.light, "the sunlight must travel down (Y below zero) to light the ground")};
    s.sun_direction = *sun;
  }
  if (text.point_lights.size() > static_cast<std::size_t>(render::kMaxPointLights3D))
    return Unexpected{Error{"", "", {}, "--point-light: at most " + std::to_string(render::kMaxPointLights3D) + " point lights, not " +
                            std::to_string(text.point_lights.size())}};
  for (const std::string& p : text.point_lights) {
    auto position = parse_vec3("--point-light", p, "a position in metres, e.g. 0.6,1.4,0.8");
    if (!position) return Unexpected{position.error()};
    s.point_lights.push_back(*position);
  }
  s.hidden_slots = split_names(text.hidden_slots);
  return s;
}

Bounds character_bounds(const RuntimeSetup& rt, std::span<const int> clips, const StageSettings& settings) {
  const skel::SkeletonData& data = *rt.data;
  Bounds all{1, 1, 0, 0};  // empty
  auto pose_bounds = [&](const skel::ClipData* c, int clip, float t) {
    skel::SkeletonInstance instance(data);
    rt.apply_skin(instance.pose());
    hide(instance.pose(), data, settings.hidden_slots);
    if (c != nullptr) {
      anim::ClipSample sample = skel::loop_sample(data, clip, 0, t, c->loop != skel::LoopMode::None);
      sample.first = true;
      sample.previous_time = 0;
      sample.loops = 0;
      instance.update({&sample, 1});
    } else {
      instance.update({});
    }
    include(all, instance.vertices().bounds());
  };
  for (int clip : clips) {
    const skel::ClipData* c = data.clip(clip);
    if (c == nullptr) continue;
    const int samples = c->length > 0 ? kPlacementSamples : 1;
    for (int i = 0; i < samples; ++i) pose_bounds(c, clip, c->length * static_cast<float>(i) / static_cast<float>(samples));
  }
  if (clips.empty()) pose_bounds(nullptr, -1, 0);
  if (all.empty()) all = {-50, -100, 50, 0};  // nothing visible: a person-sized box over the origin
  return all;
}

Expected<Stage3D> Stage3D::create(render::ForwardRenderer& renderer, const skel::SkeletonData& data, Bounds character,
                                  const StageSettings& settings) {
  Stage3D stage;
  // Skeleton pixels are Y down; the sprite's matrix mirrors Y, so the lowest point (max_y) lands on
  // y = 0 when the sprite is raised by max_y pixels.
  const float width = (character.max_x - character.min_x) * kPixelSize;
  const float height = (character.max_y - character.min_y) * kPixelSize;
  stage.sprite_.pixel_size = kPixelSize;
  stage.sprite_.billboard = render::SkeletonBillboard::None;
  stage.sprite_.shaded = true;
  // Slots a hair apart towards the viewer, in draw order: overlapping parts do not fight for depth.
  stage.sprite_.slot_depth_offset = kSlotDepthOffset;
  stage.sprite_.transform = Mat4::translation({0, character.max_y * kPixelSize, 0});
  stage.sprite_.cull_bounds = character;
  stage.ground_y_ = character.max_y;
  stage.sun_.direction = settings.sun_direction;
  stage.sun_.shadows = true;
  stage.fit_camera(character);

  const float range = std::max(2.0f, 2.5f * height);
  for (const Vec3& p : settings.point_lights) stage.points_.push_back({p, range, kPointColor, 1.5f});
  for (const std::string& name : settings.hidden_slots) {
    const int slot = data.find_slot(name);
    if (slot < 0) return Unexpected{Error{"", "", {}, "--hide-slots: the rig has no slot named '" + name + "'"}};
    stage.hidden_slots_.push_back(slot);
  }
  stage.orbit_ = settings.orbit;

  // The ground: a large plane, so its edge stays out of view from any orbit.
  const float size = std::max(12.0f, kGroundSize * std::max(width, height));
  auto mesh = renderer.add_mesh(render::make_plane(size, size, size));
  if (!mesh) return Unexpected{Error{"", "", {}, "the ground: " + mesh.error().message}};
  stage.ground_ = *mesh;
  render::Material ground;
  ground.base_color = kGroundColor;
  ground.specular = 0.05f;
  ground.shininess = 8;
  ground.receives_shadows = true;
  ground.casts_shadows = false;
  auto material = renderer.add_material(ground);
  if (!material) return Unexpected{Error{"", "", {}, "the ground's material: " + material.error().message}};
  stage.ground_material_ = *material;
  return stage;
}

void Stage3D::fit_camera(Bounds character) {
  const float width = (character.max_x - character.min_x) * kPixelSize;
  const float height = (character.max_y - character.min_y) * kPixelSize;
  centre_ = {(character.min_x + character.max_x) * 0.5f * kPixelSize, (ground_y_ - (character.min_y + character.max_y) * 0.5f) * kPixelSize, 0};
  // The shadow reaches as far from the feet as the character is tall times the sun's slope; the
  // sphere takes in about half of it.
  const Vec3 sun = normalize(sun_.direction);
  const float slope = std::min(3.0f, std::sqrt(sun.x * sun.x + sun.z * sun.z) / std::max(-sun.y, 0.05f));
  radius_ = 0.5f * std::sqrt(width * width + height * height) + 0.25f * slope * height;
}

void Stage3D::prepare_pose(skel::SkeletonPose& pose) const {
  const std::string none;
  for (int slot : hidden_slots_) skel::set_slot_attachment(pose, slot, none);
}

float Stage3D::fitted_distance(float aspect) const {
  // The sphere fills the narrower of the two fields of view, with a margin.
  const float half_y = kFovDegrees * 0.5f * std::numbers::pi_v<float> / 180;
  const float half_x = std::atan(std::tan(half_y) * aspect);
  return 1.05f * radius_ / std::sin(std::min(half_x, half_y));
}

render::ForwardFrame Stage3D::frame(float aspect) const {
  render::ForwardFrame f;
  const float distance = orbit_.distance ? *orbit_.distance : fitted_distance(aspect);
  f.camera = render::Camera::orbit(centre_, orbit_.yaw, orbit_.pitch, distance);
  f.camera.fov_y_degrees = kFovDegrees;
  f.camera.near_plane = std::max(0.01f, distance * 0.02f);
  f.camera.far_plane = std::max(100.0f, distance * 40);
  f.lights.ambient = {kAmbient, kAmbient, kAmbient, 1};
  f.lights.sun = sun_;
  f.lights.points = points_;
  f.clear = kSky;
  f.tonemap = true;
  return f;
}

Status Stage3D::draw_ground(render::ForwardRenderer& renderer) const {
  return renderer.draw_mesh(ground_, ground_material_, Mat4::identity());
}

}  // namespace mf::tools
