#include "contact_pair_set.hpp"

#include <algorithm>
#include <tuple>

namespace mf::scene {
namespace {

auto key(BodyHandle3D a, BodyHandle3D b) { return std::tuple(a.index, a.generation, b.index, b.generation); }
auto key(const TouchingPair& p) { return key(p.a, p.b); }
bool before(const TouchingPair& p, const TouchingPair& q) { return key(p) < key(q); }
bool same(const TouchingPair& p, const TouchingPair& q) { return key(p) == key(q); }

ContactEvent3D event(ContactKind kind, const TouchingPair& p) {
  return {.kind = kind, .body_a = p.a, .body_b = p.b, .user_a = p.user_a, .user_b = p.user_b, .ghost = p.ghost};
}

}  // namespace

void ContactPairSet::reserve(std::size_t pairs) {
  previous_.reserve(pairs);
  current_.reserve(pairs);
}

bool ContactPairSet::was_touching(BodyHandle3D a, BodyHandle3D b) const {
  const auto it = std::lower_bound(previous_.begin(), previous_.end(), key(a, b),
                                   [](const TouchingPair& p, const auto& k) { return key(p) < k; });
  return it != previous_.end() && key(*it) == key(a, b);
}

void ContactPairSet::finish_step(std::vector<ContactEvent3D>& events) {
  // A pair of compound or multi-manifold objects could come twice; one entry each.
  std::sort(current_.begin(), current_.end(), before);
  current_.erase(std::unique(current_.begin(), current_.end(), same), current_.end());

  // Two merge walks over the sorted sets: first the ends, then the begins.
  for (auto p = previous_.begin(), c = current_.begin(); p != previous_.end();) {
    if (c == current_.end() || before(*p, *c)) {
      events.push_back(event(ContactKind::kEnd, *p++));
    } else if (before(*c, *p)) {
      ++c;
    } else {
      ++p, ++c;
    }
  }
  for (auto p = previous_.begin(), c = current_.begin(); c != current_.end();) {
    if (p == previous_.end() || before(*c, *p)) {
      events.push_back(event(ContactKind::kBegin, *c++));
    } else if (before(*p, *c)) {
      ++p;
    } else {
      ++p, ++c;
    }
  }
  previous_.swap(current_);
}

void ContactPairSet::end_pairs_of(BodyHandle3D body, std::vector<ContactEvent3D>& events) {
  auto kept = previous_.begin();
  for (const TouchingPair& p : previous_) {
    if (p.a == body || p.b == body) {
      events.push_back(event(ContactKind::kEnd, p));
    } else {
      *kept++ = p;
    }
  }
  previous_.erase(kept, previous_.end());
}

}  // namespace mf::scene
