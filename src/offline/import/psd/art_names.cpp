#include "art_names.hpp"

#include <array>
#include <cctype>
#include <utility>

namespace mf::offline::art {

std::string UniqueNames::key(const std::string& name) const {
  if (!fold_case_) return name;
  std::string out = name;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string UniqueNames::claim(const std::string& name) {
  std::string candidate = name;
  for (int n = 2; taken(candidate); ++n) candidate = name + "-" + std::to_string(n);
  taken_.insert(key(candidate));
  return candidate;
}

std::string file_name_part(std::string_view name) {
  std::string out;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    const bool refused = u < 0x20 || u == 0x7f || std::string_view("/\\:*?\"<>|").find(c) != std::string_view::npos;
    out.push_back(refused ? '_' : c);
  }
  while (!out.empty() && (out.back() == '.' || out.back() == ' ')) out.pop_back();
  while (!out.empty() && out.front() == ' ') out.erase(out.begin());
  return out.empty() ? "_" : out;
}

std::string blend_key_name(std::string_view key) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 28> kNames = {{
      {"pass", "pass through"}, {"norm", "normal"},       {"diss", "dissolve"},     {"dark", "darken"},
      {"mul ", "multiply"},     {"idiv", "color burn"},   {"lbrn", "linear burn"},  {"dkCl", "darker color"},
      {"lite", "lighten"},      {"scrn", "screen"},       {"div ", "color dodge"},  {"lddg", "linear dodge (add)"},
      {"lgCl", "lighter color"}, {"over", "overlay"},     {"sLit", "soft light"},   {"hLit", "hard light"},
      {"vLit", "vivid light"},  {"lLit", "linear light"}, {"pLit", "pin light"},    {"hMix", "hard mix"},
      {"diff", "difference"},   {"smud", "exclusion"},    {"fsub", "subtract"},     {"fdiv", "divide"},
      {"hue ", "hue"},          {"sat ", "saturation"},   {"colr", "color"},        {"lum ", "luminosity"},
  }};
  for (const auto& [k, name] : kNames)
    if (k == key) return std::string(name);
  return "\"" + std::string(key) + "\"";
}

}  // namespace mf::offline::art
