#pragma once
// World-space vertices on the CPU: the fallback path of the renderer, the path clipped slots always
// take, and what hitboxes and tests read. Allocates nothing after construction: every buffer is sized
// for the largest case of the data when the CpuVertices object is made.

#include <cstdint>
#include <span>
#include <vector>

#include "mf/skel/clip_data.hpp"
#include "mf/skel/clipping.hpp"
#include "mf/skel/skeleton_data.hpp"
#include "mf/skel/skeleton_pose.hpp"

namespace mf::skel {

struct CpuVertex {
  float x, y;         // skeleton space
  float u, v;         // atlas page UV
  ColorF light;       // slot colour × attachment colour, straight alpha
  ColorF dark;        // the slot's dark colour with alpha 1; all zero when the slot has none
};

// A run of triangles drawn with one (page, blend, clip state); runs are in draw order, and consecutive
// drawn slots that share all three share a run.
struct DrawRun {
  std::int32_t page;            // −1 for an attachment without an atlas region
  BlendMode blend;
  bool clipped;                 // went through the clipping path
  std::uint32_t index_start;    // into CpuVertices::indices()
  std::uint32_t index_count;
  std::int32_t first_slot;      // draw-order position of the run's first slot
};

// One drawn attachment (a region or mesh on an active bone), in draw order.
struct DrawnAttachment {
  std::int32_t slot;
  std::int32_t attachment;
  bool clipped;                              // inside a clipping range
  std::uint32_t vertex_start, vertex_count;  // its vertices in vertices(): the clipped output when clipped
  std::uint32_t index_start, index_count;    // its triangles in indices()
};

// Clipped output is bounded by the data (see the constructor) and by this cap on the vertices clipped
// slots may produce per update: by default 8192 vertices (48 B each) and 3 × 8192 indices, ≈ 480 KiB
// per instance of a rig that has clipping attachments, nothing for one without. An 800-vertex mesh cut
// by a simple mask needs about 3 vertices per triangle.
inline constexpr std::size_t kDefaultMaxClippedVertices = 8192;

class CpuVertices {
 public:
  // Sizes every buffer from the data: for each slot its largest region or mesh (over all skins), and,
  // when the data has clipping attachments, room for clipped output. A triangle clipped against a
  // polygon of P vertices yields at most 6·(P − 2) vertices over all convex pieces (each piece of k
  // vertices adds at most k + 3); the clipped room is the smaller of that bound for every triangle of
  // every slot and `max_clipped_vertices`, with 3 indices per clipped vertex.
  explicit CpuVertices(const SkeletonData& data, std::size_t max_clipped_vertices = kDefaultMaxClippedVertices);

  // Computes every visible attachment's vertices from the pose's world transforms and deform, in draw
  // order, clipping the slots inside clipping ranges, and groups triangles into draw runs.
  //
  // A slot draws when its bone is active and it shows a region or mesh. A clipping attachment (on an
  // active bone) clips the slots after it in draw order up to and including its end slot, or to the
  // end; a clipping attachment met while a clip range is open is ignored. The clip polygon is taken in
  // skeleton space every update, so it follows its bones and deform.
  //
  // When an update needs more room than the buffers have (only possible for clipped output beyond the
  // cap, or a draw order that lists a slot twice), the triangles that do not fit are left out and
  // counted in dropped_triangles(); nothing is written out of bounds and nothing allocates.
  void update(const SkeletonPose& pose);

  std::span<const CpuVertex> vertices() const { return {vertices_.data(), vertex_count_}; }
  std::span<const std::uint32_t> indices() const { return {indices_.data(), index_count_}; }
  std::span<const DrawRun> runs() const { return {runs_.data(), run_count_}; }
  std::span<const DrawnAttachment> drawn() const { return {drawn_.data(), drawn_count_}; }

  // Bounds of the drawn vertices (after clipping), skeleton space; when nothing is drawn, the origins
  // of the active bones; empty() only for a skeleton without active bones. Computed from the vertices
  // by the first call after an update (so updates that never ask pay nothing); like update(), not to
  // be called on one object from two threads at once.
  Bounds bounds() const;

  // Triangles left out of the last update for lack of room.
  std::size_t dropped_triangles() const { return dropped_triangles_; }
  std::size_t vertex_capacity() const { return vertices_.size(); }
  std::size_t index_capacity() const { return indices_.size(); }

 private:
  void draw(const SkeletonPose& pose, std::int32_t slot, std::int32_t attachment, std::int32_t position, bool clipped);
  void add_triangles(const DrawRun& key, std::uint32_t index_start, std::uint32_t index_count, std::int32_t position);

  const SkeletonData* data_;
  std::vector<CpuVertex> vertices_;
  std::vector<std::uint32_t> indices_;
  std::vector<DrawRun> runs_;
  std::vector<DrawnAttachment> drawn_;
  std::vector<float> scratch_;        // a clipped slot's world x, y and UV, 4 floats per vertex
  std::vector<float> clip_polygon_;   // the clip polygon in skeleton space
  PolygonClipper clipper_;
  std::size_t vertex_count_ = 0, index_count_ = 0, run_count_ = 0, drawn_count_ = 0;
  std::size_t dropped_triangles_ = 0;
  std::size_t clipped_vertex_room_ = 0, clipped_index_room_ = 0;  // the clipped output's share
  std::size_t clipped_vertices_ = 0, clipped_indices_ = 0;        // used by the current update
  bool clip_valid_ = false;
  mutable Bounds bounds_;                // computed by bounds() when asked after an update
  mutable bool bounds_current_ = false;
  // What each unclipped drawn attachment wrote last update, by its place in draw order. When this
  // update draws the same attachment with the same region and colours at the same offsets, its UVs,
  // colours and indices are still in the buffers: only positions are written.
  struct Written {
    std::int32_t attachment = -1;  // −1: nothing reusable
    const Region* region = nullptr;
    ColorF light{}, dark{};
    std::uint32_t vertex_start = 0, index_start = 0;
    bool operator==(const Written&) const = default;
  };
  std::vector<Written> written_;
  std::size_t written_count_ = 0;  // entries of written_ from the last update
  std::vector<float> bones_;       // the pose's world transforms packed for the vertex loop (vertex_kernel.hpp)
  std::vector<std::int32_t> rigid_bones_;  // per attachment: its one bone, or −1 (vertex_kernel.hpp)
};

// The number of world vertices compute_world_vertices gives for an attachment: its vertex count, and 1
// for a point.
std::uint32_t world_vertex_count(const AttachmentRecord& attachment);

// World positions of one attachment's vertices (x, y pairs into `out`, world_vertex_count × 2 floats;
// fewer when `out` is shorter), with the pose's deform when it belongs to this attachment. A point
// gives its position on the slot's bone. For bounding boxes, paths, clipping polygons, points and tools.
void compute_world_vertices(const SkeletonPose& pose, std::int32_t slot, std::int32_t attachment, std::span<float> out);

}  // namespace mf::skel
