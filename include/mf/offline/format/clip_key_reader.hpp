#pragma once
// Key edits from outside text: the JSON files of `mfe skel key --keys` and the command line's --v and
// --curve, which are turned into the same JSON values first so that both are read by one reader.
//
// A --keys file is a JSON array of key objects (docs/cli-clips.md):
//   { "bone" | "slot" | "ik" | "transform" | "path" | "physics" | "event": name,
//     "timeline": name (not for events), "t": seconds,
//     "v": value (not for physics resets, events and deletes),
//     "curve": "linear" | "stepped" | "ease" | [cx1, cy1, cx2, cy2] | [curve per component, ...],
//     "delete": true (optional: remove the key at t),
//     events only: "int", "float", "string", "volume", "balance" }
// Unknown keys are errors, as everywhere; every error names the file, line:column and the JSON path
// (`keys[2].timeline`).

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mf/core/expected.hpp"
#include "mf/offline/format/clip_key_edit.hpp"
#include "mf/offline/json/json.hpp"

namespace mf::offline {

// One key object of a --keys file, with where its fields were.
struct KeyEditSource {
  KeyEdit edit;
  std::string path;                       // "keys[2]"
  std::string target_key;                 // the field that named the target: "bone", "ik", ...
  std::array<TextPosition, 5> positions;  // by KeyField; the object's own position for a field it lacks

  // The JSON path of a field: "keys[2].bone", "keys[2].v".
  std::string field_path(KeyField field) const;
};

Expected<std::vector<KeyEditSource>> read_key_edits(std::string_view text, const std::string& file);

// Fills the value of `edit` (for edit.timeline) from `value`, as a --keys "v" holds it. Errors name
// `file` and `path` (a command line reads with path "--v" and no file).
Status read_key_value(const json::Value& value, const std::string& file, const std::string& path, KeyEdit& edit);

// The curve of a key from `value`, as a --keys "curve" holds it.
Expected<std::vector<Curve>> read_key_curve(const json::Value& value, const std::string& file, const std::string& path);

// The command line's --v text as the JSON value a --keys "v" would hold for this timeline: numbers
// separated by commas ("10,-4"), colours ("#ff8800ff", "#ff8800ff,#202020" for two colours), an
// attachment name or null, an inherit mode, true / false for ik compress and stretch, and
// "mode[,index[,delay]]" for a sequence.
json::Value key_value_from_text(std::string_view text, const KeyTimeline& timeline);

// The command line's --curve text as JSON: linear, stepped, ease or cx1,cy1,cx2,cy2, or several of those
// separated by "|", one per interpolated component ("ease|linear").
json::Value key_curve_from_text(std::string_view text);

}  // namespace mf::offline
