#pragma once
// A set of board cells (a position's 81 cells), for distinct_moves (biloba_game.cpp) to keep one
// turn per resulting position among the turns that capture.
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "games/biloba/biloba_board.h"

namespace plateau::biloba {

// The cells of the positions reached by turns that captured, for distinct_moves (turns that
// capture nothing are told apart by their pawn and its final square alone): an open-addressing
// set of their hashes with the cells kept aside, so that an insert costs no allocation of its
// own and a hash reads the 81 cells a word at a time.
class SeenCells {
 public:
  using Cells = std::array<std::uint8_t, kSquares>;
  // True when `cells` was not in the set (it is now).
  bool insert(const Cells& cells) {
    if (2 * (cells_.size() + 1) > slots_.size()) grow();
    const std::uint64_t h = hash(cells);
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = h & mask;
    for (; slots_[i].hash != 0; i = (i + 1) & mask) {
      if (slots_[i].hash == h && cells_[slots_[i].index] == cells) return false;
    }
    slots_[i] = {h, static_cast<std::uint32_t>(cells_.size())};
    cells_.push_back(cells);
    return true;
  }

 private:
  struct Slot {
    std::uint64_t hash = 0;  // 0 = free (hash() is odd)
    std::uint32_t index = 0;
  };
  static std::uint64_t hash(const Cells& cells) {
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i + 8 <= kSquares; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, cells.data() + i, 8);
      h = (h ^ w) * 0xFF51AFD7ED558CCDull;
      h ^= h >> 29;
    }
    h = (h ^ cells[kSquares - 1]) * 0xC4CEB9FE1A85EC53ull;
    return (h ^ (h >> 32)) | 1;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : 2 * old.size(), Slot{});
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.hash == 0) continue;
      std::size_t i = s.hash & mask;
      while (slots_[i].hash != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  std::vector<Slot> slots_;
  std::vector<Cells> cells_;
};

}  // namespace plateau::biloba
