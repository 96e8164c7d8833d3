#pragma once
// Zobrist hashing: a position's hash is the XOR of one fixed 64-bit key per (feature, value)
// it has. Keys come from a fixed seed so hashes are stable across runs and builds (transposition
// tables and solver tables may be stored on disk).
#include <cstdint>
#include <vector>

#include "core/random.h"

namespace plateau {

class ZobristTable {
 public:
  // features × values keys, drawn from `seed` (pick one distinct seed per game).
  ZobristTable(std::size_t features, std::size_t values, std::uint64_t seed)
      : values_(values), keys_(features * values) {
    std::uint64_t state = seed;
    for (auto& k : keys_) k = splitmix64(state);
  }

  // Key of feature `feature` (0-based, < features) taking value `value` (< values).
  std::uint64_t key(std::size_t feature, std::size_t value) const {
    return keys_[feature * values_ + value];
  }

 private:
  std::size_t values_;
  std::vector<std::uint64_t> keys_;
};

}  // namespace plateau
