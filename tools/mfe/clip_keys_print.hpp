#pragma once
// Every key of a clip, one line (or one JSON object) per timeline, for `mfe skel describe --clip`.
// Values and curves are written as `mfe skel key` reads them (key_text.hpp), so a line can be typed
// back: "bone chest rotate  0=0[ease] 0.5=-4 1=0" is --bone chest --timeline rotate with --t/--v pairs.

#include <string>

#include "mf/offline/format/clip_model.hpp"
#include "mf/offline/json/json_writer.hpp"

namespace mf::tools {

// The lines of the text form, each indented by `indent`, ending in a newline.
std::string clip_keys_text(const offline::ClipSource& clip, const std::string& indent);

// The "timelines" array of the JSON form: per timeline its path, target, timeline name, times and keys.
void write_clip_keys_json(json::Writer& w, const offline::ClipSource& clip);

}  // namespace mf::tools
