#pragma once
// What every importer reports beside its output (import-report.txt): one thing that did not map
// exactly, or needs the user's attention, with the place in the source it came from.

#include <string>

namespace mf::offline {

struct ImportNote {
  std::string where;    // e.g. "skins[0].attachments.head.head", "hero.atlas:12" or "art.psd:Body/Torso"
  std::string message;
};

}  // namespace mf::offline
