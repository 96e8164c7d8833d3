#pragma once
// A set of 64-bit position keys for the searches (alphabeta.cpp): the game's earlier positions
// (State::earlier_positions, up to about a thousand), probed at every node for repetitions.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace plateau::ai {

// Open addressing in a power-of-two table at most half full: a lookup is a multiply, a shift and
// usually one compare (an unordered_set divides by its bucket count and follows a node pointer
// per lookup). Any 64-bit values, 0 and duplicates included.
class KeySet {
 public:
  // The set becomes exactly `keys` (memory: 16 bytes or more per key, at least 128 bytes).
  void assign(const std::vector<std::uint64_t>& keys) {
    std::size_t n = 16;
    int bits = 4;
    while (n < 2 * keys.size()) {
      n <<= 1;
      ++bits;
    }
    slots_.assign(n, 0);
    shift_ = 64 - bits;
    has_zero_ = false;
    empty_ = keys.empty();
    for (std::uint64_t k : keys) {
      if (k == 0) {
        has_zero_ = true;  // 0 marks a free slot: kept aside
        continue;
      }
      std::size_t i = slot(k);
      while (slots_[i] != 0 && slots_[i] != k) i = (i + 1) & (n - 1);
      slots_[i] = k;
    }
  }
  // True when `k` was among the keys of the last assign() (false before any).
  bool contains(std::uint64_t k) const {
    if (empty_) return false;
    if (k == 0) return has_zero_;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slot(k); slots_[i] != 0; i = (i + 1) & mask) {
      if (slots_[i] == k) return true;
    }
    return false;
  }

 private:
  // (Multiplied first: a game's default key, hash(), need not be uniform in its low bits.)
  std::size_t slot(std::uint64_t k) const {
    return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  std::vector<std::uint64_t> slots_;
  int shift_ = 60;
  bool has_zero_ = false;
  bool empty_ = true;
};

}  // namespace plateau::ai
