#include "mf/editor/core/model/draw_order_keys.hpp"

#include <algorithm>
#include <unordered_map>

namespace mf::editor {

using offline::DrawOrderMove;

std::vector<std::string> draw_order_of(const std::vector<std::string>& setup, const std::vector<DrawOrderMove>& moves) {
  const std::size_t n = setup.size();
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < n; ++i) index.emplace(setup[i], i);
  std::vector<const std::string*> placed(n, nullptr);
  std::vector<bool> moved(n, false);
  for (const DrawOrderMove& m : moves) {
    const auto it = index.find(m.slot);
    if (it == index.end()) continue;
    const long long place = static_cast<long long>(it->second) + m.offset;
    if (place < 0 || place >= static_cast<long long>(n) || placed[static_cast<std::size_t>(place)] || moved[it->second])
      continue;
    placed[static_cast<std::size_t>(place)] = &setup[it->second];
    moved[it->second] = true;
  }
  std::vector<std::string> out;
  out.reserve(n);
  std::size_t next = 0;  // next unmoved slot in setup order
  for (std::size_t p = 0; p < n; ++p) {
    if (placed[p]) {
      out.push_back(*placed[p]);
      continue;
    }
    while (next < n && moved[next]) ++next;
    if (next < n) out.push_back(setup[next++]);
  }
  return out;
}

std::vector<DrawOrderMove> moves_for(const std::vector<std::string>& setup, const std::vector<std::string>& order) {
  std::unordered_map<std::string, int> index;
  for (std::size_t i = 0; i < setup.size(); ++i) index.emplace(setup[i], static_cast<int>(i));
  std::vector<int> seq;  // setup index of each place
  seq.reserve(order.size());
  for (const std::string& name : order) seq.push_back(index.at(name));

  // Longest increasing subsequence (patience sorting with back links): those slots stay.
  std::vector<int> tails;       // place of the smallest tail of each run length
  std::vector<int> back(seq.size(), -1);
  for (std::size_t p = 0; p < seq.size(); ++p) {
    const auto it = std::lower_bound(tails.begin(), tails.end(), seq[p],
                                     [&](int place, int value) { return seq[static_cast<std::size_t>(place)] < value; });
    if (it != tails.begin()) back[p] = *(it - 1);
    if (it == tails.end()) tails.push_back(static_cast<int>(p));
    else *it = static_cast<int>(p);
  }
  std::vector<bool> stays(seq.size(), false);
  for (int p = tails.empty() ? -1 : tails.back(); p >= 0; p = back[static_cast<std::size_t>(p)])
    stays[static_cast<std::size_t>(p)] = true;

  std::vector<DrawOrderMove> moves;
  for (std::size_t p = 0; p < seq.size(); ++p)
    if (!stays[p]) moves.push_back({order[p], static_cast<int>(p) - seq[p]});
  return moves;
}

}  // namespace mf::editor
