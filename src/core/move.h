#pragma once
// A move is one full turn of one seat (DESIGN.md §2): everything a seat does before the turn
// passes. Its content is an opaque sequence of 16-bit codes that only the owning game interprets
// (a BohnDuell move code, a Phutball point list, a Biloba step plus refills). Moves are compared
// and hashed by their codes; text goes through State::move_to_string / State::parse_move.
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <functional>
#include <initializer_list>

namespace plateau {

class Move {
 public:
  using Code = std::uint16_t;
  // Inline capacity covers every BohnDuell and Biloba move and Phutball paths up to 13 hops;
  // longer jump paths (up to a few dozen hops) spill to the heap.
  using Codes = boost::container::small_vector<Code, 14>;

  Move() = default;
  Move(std::initializer_list<Code> codes) : codes_(codes) {}

  void push_back(Code code) { codes_.push_back(code); }
  void pop_back() { codes_.pop_back(); }
  void clear() { codes_.clear(); }
  std::size_t size() const { return codes_.size(); }
  bool empty() const { return codes_.empty(); }
  Code operator[](std::size_t i) const { return codes_[i]; }
  Code back() const { return codes_.back(); }
  const Codes& codes() const { return codes_; }
  auto begin() const { return codes_.begin(); }
  auto end() const { return codes_.end(); }

  friend bool operator==(const Move& a, const Move& b) { return a.codes_ == b.codes_; }
  friend bool operator<(const Move& a, const Move& b) { return a.codes_ < b.codes_; }

  // FNV-1a over the codes; for hash containers of moves, not for positions (see zobrist.h).
  std::size_t hash() const {
    std::uint64_t h = 1469598103934665603ull;
    for (Code c : codes_) h = (h ^ c) * 1099511628211ull;
    return static_cast<std::size_t>(h ^ codes_.size());
  }

 private:
  Codes codes_;
};

struct MoveHash {
  std::size_t operator()(const Move& m) const { return m.hash(); }
};

}  // namespace plateau
