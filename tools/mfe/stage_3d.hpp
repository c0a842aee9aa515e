#pragma once
// The 3D stage `mfe skel render --3d` and `mfe skel view --3d` show a rig on: the skeleton as a
// shaded sprite (0.01 m per skeleton pixel, no billboard) whose lowest point stands on y = 0 with
// the rig's origin over the world origin, a large neutral ground plane that receives its shadow, a
// sun casting shadows, optional point lights, ambient 0.35, and an orbit camera around the
// character's middle whose distance is fitted to show the character and its shadow.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/core/math/bounds.hpp"
#include "mf/core/math/vec3.hpp"
#include "mf/render/forward_renderer.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skeleton_pose.hpp"
#include "runtime_setup.hpp"

namespace mf::tools {

// Where the camera orbits from, in degrees (Camera::orbit's convention) and metres; no distance:
// fitted to the character and its shadow.
struct StageOrbit {
  float yaw = 20, pitch = 15;
  std::optional<float> distance;
};

struct StageSettings {
  StageOrbit orbit;
  Vec3 sun_direction{0.55f, -1, -0.6f};  // where the light travels: from the front-left-top
  std::vector<Vec3> point_lights;        // positions in metres (at most kMaxPointLights3D)
  std::vector<std::string> hidden_slots;  // e.g. a 2D blob shadow: the stage casts real ones
};

// The stage's options as given on the command line, shared by render and view.
struct StageOptionText {
  std::string camera;                     // "yaw,pitch[,distance]"
  std::string light;                      // "x,y,z": the sun's direction
  std::vector<std::string> point_lights;  // "x,y,z" each
  std::string hidden_slots;               // comma-separated slot names; empty: every slot shows
};
// Errors name the option and the value ("--camera \"a,b\": ...").
Expected<StageSettings> parse_stage_options(const StageOptionText& text);

// The character's skeleton-space bounds the stage places and frames it by: the union over samples of
// the clips (with the hidden slots hidden), so the feet of every frame stand on the ground; no clips:
// the setup pose's.
Bounds character_bounds(const RuntimeSetup& rt, std::span<const int> clips, const StageSettings& settings);

class Stage3D {
 public:
  // Adds the ground's mesh and material to `renderer`.
  static Expected<Stage3D> create(render::ForwardRenderer& renderer, const skel::SkeletonData& data, Bounds character,
                                  const StageSettings& settings);

  // Frames the camera on these skeleton-space bounds (a clip's) and their shadow; the character's
  // placement stays.
  void fit_camera(Bounds character);
  // Hides the hidden slots (from code: survives the per-frame reset; call after a skin change).
  void prepare_pose(skel::SkeletonPose& pose) const;
  // The frame for a target's aspect (width / height). Its point lights point into this stage.
  render::ForwardFrame frame(float aspect) const;
  const render::SpriteDrawOptions& sprite() const { return sprite_; }
  // Queues the ground; call between begin_frame and end_frame.
  Status draw_ground(render::ForwardRenderer& renderer) const;

  // The orbit the camera is at now (the viewer turns and zooms it).
  StageOrbit& orbit() { return orbit_; }
  // The distance that shows the character and its shadow at this aspect (width / height).
  float fitted_distance(float aspect) const;

 private:
  Stage3D() = default;
  render::MeshHandle ground_;
  render::MaterialHandle ground_material_;
  render::SpriteDrawOptions sprite_;
  render::DirectionalLight sun_;
  std::vector<render::PointLight3D> points_;
  std::vector<int> hidden_slots_;
  float ground_y_ = 0;  // the skeleton-space y standing on the ground
  Vec3 centre_;
  float radius_ = 1;  // of a sphere round the centre holding the character and its shadow, metres
  StageOrbit orbit_;
};

}  // namespace mf::tools
