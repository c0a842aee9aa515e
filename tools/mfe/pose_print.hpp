#pragma once
// The pose printers shared by `mfe skel pose` and `mfe skel play`: world transforms of the bones,
// slots, draw order, optionally the frame's events and the attachments' world vertices.

#include "mf/offline/json/json_writer.hpp"
#include "mf/skel/skeleton_instance.hpp"

namespace mf::tools {

// Human-readable text on stdout.
void print_pose_text(skel::SkeletonInstance& instance, bool with_vertices, bool with_events);
// The members "bones", "slots", "drawOrder", then "events" and "vertices" when asked, into the object
// the writer has open.
void write_pose_members(json::Writer& w, skel::SkeletonInstance& instance, bool with_vertices, bool with_events);

}  // namespace mf::tools
