#pragma once
// Names the art import gives: unique names where the rig needs them unique, image names that are
// safe as file paths, blend mode keys in words.

#include <set>
#include <string>
#include <string_view>

namespace mf::offline::art {

// Hands out names not handed out before: the name asked for, else "<name>-2", "<name>-3", ...
// With `fold_case`, names that differ only by case count as the same (file names on a file system
// that ignores case).
class UniqueNames {
 public:
  explicit UniqueNames(bool fold_case = false) : fold_case_(fold_case) {}
  std::string claim(const std::string& name);
  // Marks a name taken without handing it out.
  void reserve(const std::string& name) { taken_.insert(key(name)); }
  bool taken(const std::string& name) const { return taken_.count(key(name)) != 0; }

 private:
  std::string key(const std::string& name) const;
  bool fold_case_;
  std::set<std::string> taken_;
};

// A layer or group name as one part of a file path: characters file systems refuse ('/', '\', ':',
// '*', '?', '"', '<', '>', '|', control characters) become '_', trailing dots and spaces go, and
// an empty result is "_".
std::string file_name_part(std::string_view name);

// "multiply", "overlay", ... for a PSD blend mode key; the key itself when unknown.
std::string blend_key_name(std::string_view key);

}  // namespace mf::offline::art
