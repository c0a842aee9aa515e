#pragma once
// Counts every allocation through global operator new. Link counting_new.cpp into a test executable
// (only one per executable: it replaces the global operators) and read the count around the frames
// that must not allocate.

#include <cstddef>

namespace mf::testing {

std::size_t allocation_count();

}  // namespace mf::testing
