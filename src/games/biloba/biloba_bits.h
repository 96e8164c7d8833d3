#pragma once
// Biloba bitboards: a set of squares as one 128-bit word, bit = square (0..80, 9*y + x), for the
// fast generator (biloba_movegen.h). Sets of a position's cells are read 16 at a time (SSE2
// byte compares where available), and a whole set moves one or two squares in a direction with
// a shift, masked so that nothing wraps round the board's sides.
#include <cstdint>
#include <type_traits>
#include <utility>

#include "games/biloba/biloba_board.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace plateau::biloba {

// (__extension__: GCC and Clang have 128-bit integers; -Wpedantic would flag the type.)
__extension__ typedef unsigned __int128 Bits;

namespace bits_detail {
// The one-square sets, for bit() at run time: a load instead of a 128-bit shift by a variable
// (a branch and half a dozen instructions; the generator asks for several per pawn).
struct SingleSquares {
  std::array<Bits, 128> set{};
  constexpr SingleSquares() {
    for (int sq = 0; sq < 128; ++sq) set[sq] = Bits{1} << sq;
  }
};
inline constexpr SingleSquares kSingle;
}  // namespace bits_detail

constexpr Bits bit(int square) {
  if (std::is_constant_evaluated()) return Bits{1} << square;
  return bits_detail::kSingle.set[square];
}

namespace bits_detail {

constexpr Bits grid_mask() { return (Bits{1} << kSquares) - 1; }

struct BitTables {
  std::array<Bits, kSquares> neighbours{};  // playable king-move neighbours of each square
  // column_ok[d][k - 1]: the squares that can move k squares in direction d without leaving the
  // 9 columns (rows are cut by the shift itself and by the grid mask).
  std::array<std::array<Bits, 2>, kDirections> column_ok{};
  // two_away[a][f]: bit d when f is the square beyond `a` in direction d (two steps).
  std::array<std::array<std::uint8_t, kSquares>, kSquares> two_away{};
};

constexpr BitTables make_bit_tables() {
  BitTables t{};
  for (int sq = 0; sq < kSquares; ++sq) {
    for (int d = 0; d < kDirections; ++d) {
      const int n = neighbour(sq, d);
      if (n >= 0 && is_playable(n)) t.neighbours[sq] |= bit(n);
      for (int k = 1; k <= 2; ++k) {
        const int x = x_of(sq) + k * kDx[d];
        if (x >= 0 && x < kSize) t.column_ok[d][k - 1] |= bit(sq);
      }
      const int b = beyond(sq, d);
      if (b >= 0) t.two_away[sq][b] = static_cast<std::uint8_t>(t.two_away[sq][b] | (1u << d));
    }
  }
  return t;
}

inline constexpr BitTables kBits = make_bit_tables();

}  // namespace bits_detail

// Square offsets of the 8 directions (dx + 9·dy).
inline constexpr std::array<int, kDirections> kOffset = {-10, -1, 8, -9, 9, -8, 1, 10};

// The set `b` moved k (1 or 2) squares in direction d; squares leaving the grid are dropped.
inline Bits shifted(Bits b, int d, int k) {
  b &= bits_detail::kBits.column_ok[d][k - 1];
  const int off = k * kOffset[d];
  b = off > 0 ? b << off : b >> -off;
  return b & bits_detail::grid_mask();
}

// The squares X with X + k·(direction d) in `b`.
inline Bits reaching(Bits b, int d, int k) { return shifted(b, opposite(d), k); }

// shifted / reaching for a direction and distance known at compile time: a 128-bit shift by a
// constant is a few instructions, by a variable a branch and a dozen (the evaluation and the
// generator shift whole boards in all 8 directions at every node).
template <int D, int K = 1>
inline Bits shifted_by(Bits b) {
  constexpr int off = K * kOffset[D];
  b &= bits_detail::kBits.column_ok[D][K - 1];
  if constexpr (off > 0) {
    b <<= off;
  } else {
    b >>= -off;
  }
  return b & bits_detail::grid_mask();
}
template <int D, int K = 1>
inline Bits reaching_by(Bits b) {
  return shifted_by<7 - D, K>(b);
}

// Calls f(std::integral_constant<int, d>{}) for d = 0..7, so that f can shift by d at compile
// time (shifted_by<d>).
template <class F>
inline void for_each_direction(F&& f) {
  [&f]<int... D>(std::integer_sequence<int, D...>) {
    (f(std::integral_constant<int, D>{}), ...);
  }(std::make_integer_sequence<int, kDirections>{});
}

// Calls f(square) for every square of `b`, ascending (one 64-bit half at a time).
template <class F>
inline void for_each_square(Bits b, F&& f) {
  for (auto w = static_cast<std::uint64_t>(b); w != 0; w &= w - 1) f(__builtin_ctzll(w));
  for (auto w = static_cast<std::uint64_t>(b >> 64); w != 0; w &= w - 1) {
    f(64 + __builtin_ctzll(w));
  }
}

inline Bits neighbours_of(int square) { return bits_detail::kBits.neighbours[square]; }
// Bit d set when f is two squares from a in direction d (f == beyond(a, d)).
inline std::uint8_t two_away(int a, int f) { return bits_detail::kBits.two_away[a][f]; }

// The lowest square of a non-empty set.
inline int lowest(Bits b) {
  const auto lo = static_cast<std::uint64_t>(b);
  return lo != 0 ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(static_cast<std::uint64_t>(b >> 64));
}

// The squares whose cell equals `value`.
inline Bits cells_equal(const std::array<std::uint8_t, kSquares>& cell, std::uint8_t value) {
  Bits out = 0;
#if defined(__SSE2__)
  const __m128i v = _mm_set1_epi8(static_cast<char>(value));
  for (int i = 0; i < 80; i += 16) {
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(cell.data() + i));
    const auto m = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(c, v)));
    out |= Bits{m} << i;
  }
  if (cell[80] == value) out |= bit(80);
#else
  for (int sq = 0; sq < kSquares; ++sq) {
    if (cell[sq] == value) out |= bit(sq);
  }
#endif
  return out;
}

// The number of squares in a set. A SWAR count: the build targets plain x86-64, where
// __builtin_popcountll is a call into libgcc (the evaluation counts a dozen sets per node).
inline int count_of(Bits b) {
  auto pop = [](std::uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return static_cast<int>((x * 0x0101010101010101ull) >> 56);
  };
  return pop(static_cast<std::uint64_t>(b)) + pop(static_cast<std::uint64_t>(b >> 64));
}

// Every set of a position's cells that the evaluation needs, read in one pass.
struct CellSets {
  std::array<Bits, kMaxColours> colour{};  // the pawns of each colour
  Bits empty = 0;                          // cells holding kEmpty (the centre when free)
  Bits wall = 0;                           // unplayable cells (kWall)
};

// The sets of `cell` (values: a colour 0..3, kEmpty = 4, kWall = 5).
inline CellSets cell_sets(const std::array<std::uint8_t, kSquares>& cell) {
  CellSets out;
#if defined(__SSE2__)
  for (int i = 0; i < 80; i += 16) {
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(cell.data() + i));
    auto mask = [&c](int value) {
      const __m128i v = _mm_set1_epi8(static_cast<char>(value));
      return Bits{static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(c, v)))};
    };
    for (int k = 0; k < kMaxColours; ++k) out.colour[k] |= mask(k) << i;
    out.empty |= mask(4) << i;
    out.wall |= mask(5) << i;
  }
  const int last = cell[80];
  if (last < kMaxColours) out.colour[last] |= bit(80);
  if (last == 4) out.empty |= bit(80);
  if (last == 5) out.wall |= bit(80);
#else
  for (int sq = 0; sq < kSquares; ++sq) {
    const int c = cell[sq];
    if (c < kMaxColours) out.colour[c] |= bit(sq);
    if (c == 4) out.empty |= bit(sq);
    if (c == 5) out.wall |= bit(sq);
  }
#endif
  return out;
}

}  // namespace plateau::biloba
