#pragma once
// Tags in layer and group names, after the conventions of Spine's Photoshop script, so that artists'
// habits carry over: "[bone] arm", "Hair [mesh]", "[skin] red" or "[skin:red]". A tag is a bracketed
// word, anywhere in the name, in any case; the name left once the tags are taken out (spaces
// collapsed) is the layer's name in the rig.

#include <string>
#include <string_view>
#include <vector>

namespace mf::offline {

struct LayerTags {
  std::string name;    // the name without its tags, spaces collapsed and trimmed; may be empty
  bool ignore = false;  // [ignore]: the layer (a group with everything in it) is not imported
  bool slot = false;    // [slot] on a group: its layers are the attachments of one slot
  bool skin = false;    // [skin] on a group: its layers are a skin's attachments
  std::string skin_name;  // [skin:name]; empty: the group's name is the skin's
  bool merge = false;   // [merge] on a group: flattened into one image
  bool bone = false;    // [bone] on a layer: a bone for that layer alone
  bool mesh = false;    // [mesh]: auto mesh the layer
  bool normal = false;  // [normal]: the normal map of the layer of the same name
  bool origin = false;  // [origin]: marks the rig's origin (top level) or a group's bone position
  // Tags of Spine's script this import does not carry out ("[folder]", "[trim]", "[scale:2]", ...),
  // as written; the caller reports them. Bracketed words that are no tag ("Arm [L]") stay in the name.
  std::vector<std::string> unsupported;
};

LayerTags parse_layer_tags(std::string_view name);

}  // namespace mf::offline
