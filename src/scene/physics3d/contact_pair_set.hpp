#pragma once
// ContactPairSet: the pairs of bodies touching after a step, kept sorted, and the diff that turns two
// steps' sets into begin and end events. Bullet-free: PhysicsWorld3D fills it from the contact
// manifolds. Both sets keep their capacity, so a warm step allocates nothing.

#include <cstdint>
#include <vector>

#include "mf/scene/physics3d/physics_world_3d.hpp"

namespace mf::scene {

struct TouchingPair {
  BodyHandle3D a, b;  // a.index < b.index
  std::uintptr_t user_a = 0, user_b = 0;
  bool ghost = false;
};

class ContactPairSet {
 public:
  void reserve(std::size_t pairs);

  // Starts gathering a step's pairs; was_touching still answers for the previous step.
  void begin_step() { current_.clear(); }
  bool was_touching(BodyHandle3D a, BodyHandle3D b) const;  // a.index < b.index
  void add(const TouchingPair& pair) { current_.push_back(pair); }

  // Sorts the gathered pairs (one per pair of bodies) and appends the end events (pairs gone since the
  // previous step), then the begin events (pairs new in this one), each in pair order; the gathered
  // set becomes the previous one.
  void finish_step(std::vector<ContactEvent3D>& events);

  // Drops every pair of `body` from the previous set, appending their end events (a removed body).
  void end_pairs_of(BodyHandle3D body, std::vector<ContactEvent3D>& events);

  std::size_t size() const { return previous_.size(); }

 private:
  std::vector<TouchingPair> previous_, current_;
};

}  // namespace mf::scene
