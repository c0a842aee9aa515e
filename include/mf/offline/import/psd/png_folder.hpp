#pragma once
// The PNG-folder source of the art import: a folder of PNGs read as a layered document, so that it
// imports by the same rules as a PSD (art_import.hpp). Sub-folders are groups; file and folder names
// carry the same tags as layer names ("arm [mesh].png", "[skin] red/"). Within a folder, entries are
// taken in name order (byte order), the first the bottom-most: number them ("01 body.png") to set
// the draw order. Names starting with '.' and files that are not .png are left out.
//
// Placement: when every PNG has the same size, they are read as full-canvas layer exports (what
// "export layers" scripts write): the canvas is that size and each image's pixels sit where they are
// in it. Otherwise there is no canvas to place them on, and every image is centred on the rig's
// origin (to the pixel: an odd size puts its centre half a pixel right of or below it).

#include <string>

#include "mf/core/expected.hpp"
#include "mf/imaging/psd.hpp"

namespace mf::offline {

// The folder as a document: groups for sub-folders, a visible, fully opaque, normally blending pixel
// layer per PNG. Errors: a folder that cannot be read, a PNG that does not decode, no PNG at all.
Expected<imaging::PsdDocument> read_png_folder(const std::string& folder);

}  // namespace mf::offline
