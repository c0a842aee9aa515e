#pragma once
// Re-import: a fresh import of the same art merged into the rig an earlier import made, keeping
// everything the user did since (bones and their poses, meshes, weights, constraints, skins, slots'
// colours, clips). The rig's images are matched to the art's layers by images[].source:
//   - a layer still there keeps its image name; a layer whose rectangle on the canvas moved shifts
//     the attachments that show its image by as much: a region's offset by the move of the image's
//     centre, a mesh's vertices (unweighted positions, or each influence's bind position) by the move
//     of the canvas point under each vertex's UV, which keeps every pixel where the art puts it. The
//     move is a canvas (rig) delta, turned into each bone's space with the setup world transforms.
//   - a new layer becomes a new slot (or, when the rig has a slot of its slot's name, a new
//     attachment of that slot), its bones made where the rig lacks them, placed where the art puts it;
//   - a layer no longer in the art is reported and kept, never deleted.

#include <map>
#include <string>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/offline/format/skeleton_model.hpp"
#include "mf/offline/import/import_note.hpp"
#include "mf/offline/import/psd/art_import.hpp"

namespace mf::offline {

struct Reimport {
  SkeletonSource skeleton;  // the rig with the art merged in
  // The fresh import's image names (normal maps included) → the names they have in the rig.
  std::map<std::string, std::string> image_names;
  // Notes on the rig's state against the art (layers missing from it, attachments that could not
  // follow a move, settings the rig keeps that differ from the art). They describe the state, not
  // this run, so importing the same art again gives the same notes.
  std::vector<ImportNote> notes;
  // What this run changed, by layer source: for the caller's summary.
  std::vector<std::string> moved, added, missing;
  std::string renamed_from;  // the art's earlier file name, when it was re-imported under a new one
  // Attachments that could not follow their art's move, each "<source>: <what and why>".
  std::vector<std::string> not_shifted;
};

// Merges `fresh` into `rig`. The rig's images whose source names fresh.source are matched to the
// art's layers by the layer path; when none does and every imported image of the rig (one with a
// rectangle) came from one other file, that file is taken for this art under an earlier name, and
// the matched images' sources are renamed. Images from other sources are left alone. Errors: the
// merged rig would not be valid.
Expected<Reimport> merge_reimport(const SkeletonSource& rig, const ArtImport& fresh);

}  // namespace mf::offline
