#pragma once
// Biloba board geometry (specs/biloba.md §1): the 9×9 grid with cut corners, the centre e5, the
// 8 king-move directions in the original's scan order, square names, and the per-colour jump
// directions (§3.2). Everything here is a fixed table; nothing depends on a position.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace plateau::biloba {

inline constexpr int kSize = 9;        // the grid is kSize × kSize cells
inline constexpr int kSquares = 81;    // cells, indexed 9*y + x (x = column, y = row from top)
inline constexpr int kCentre = 40;     // e5 = (4,4)
inline constexpr int kDirections = 8;  // king moves
inline constexpr int kMaxColours = 4;  // orange, blue, red, green = seats 0..3

constexpr int square_of(int x, int y) { return 9 * y + x; }
constexpr int x_of(int square) { return square % 9; }
constexpr int y_of(int square) { return square / 9; }

// Cell types of §1.1.
enum class CellType : std::uint8_t { kNoTile, kDecorative, kCentre, kNormal };

// Direction d is (dx, dy) in the original's scan order (§1.3): dx ascending, then dy ascending,
// so the opposite of direction d is 7 - d.
inline constexpr std::array<int, kDirections> kDx = {-1, -1, -1, 0, 0, 1, 1, 1};
inline constexpr std::array<int, kDirections> kDy = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int opposite(int direction) { return 7 - direction; }

namespace detail {

// Every fixed fact of the grid as a table built at compile time: the rules engine asks for
// neighbours and squares beyond in its innermost loops (move generation, captures).
struct BoardTables {
  std::array<CellType, kSquares> type{};
  std::array<std::array<std::int8_t, kDirections>, kSquares> neighbour{};
  std::array<std::array<std::int8_t, kDirections>, kSquares> beyond{};
  // A capture line from each square (§4.1): the neighbour S and the square T beyond it in
  // direction d, or 0 for both when the line leaves the grid or T is the centre (a flanker
  // never stands there). Square 0 (a9) is a no-tile cell, so it never holds a pawn.
  std::array<std::array<std::uint8_t, kDirections>, kSquares> line_s{};
  std::array<std::array<std::uint8_t, kDirections>, kSquares> line_t{};
  // jumps[players - 2][colour]: bit d set when a pawn may jump in direction d (§3.2).
  std::array<std::array<std::uint8_t, kMaxColours>, 3> jumps{};
};

constexpr std::int8_t grid_at(int x, int y) {
  return x < 0 || x >= kSize || y < 0 || y >= kSize ? std::int8_t{-1}
                                                     : static_cast<std::int8_t>(square_of(x, y));
}

constexpr BoardTables make_board_tables() {
  BoardTables t{};
  for (int sq = 0; sq < kSquares; ++sq) {
    const int x = x_of(sq), y = y_of(sq);
    const bool edge_x = x == 0 || x == 8, edge_y = y == 0 || y == 8;
    const bool near_x = x <= 1 || x >= 7, near_y = y <= 1 || y >= 7;
    if (edge_x && edge_y) {
      t.type[sq] = CellType::kNoTile;
    } else if ((edge_x && near_y) || (edge_y && near_x)) {
      t.type[sq] = CellType::kDecorative;  // (1,0) (0,1) and their mirror images
    } else if (sq == kCentre) {
      t.type[sq] = CellType::kCentre;
    } else {
      t.type[sq] = CellType::kNormal;
    }
    for (int d = 0; d < kDirections; ++d) {
      t.neighbour[sq][d] = grid_at(x + kDx[d], y + kDy[d]);
      t.beyond[sq][d] = grid_at(x + 2 * kDx[d], y + 2 * kDy[d]);
      const bool line = t.neighbour[sq][d] >= 0 && t.beyond[sq][d] >= 0 && t.beyond[sq][d] != kCentre;
      t.line_s[sq][d] = line ? static_cast<std::uint8_t>(t.neighbour[sq][d]) : 0;
      t.line_t[sq][d] = line ? static_cast<std::uint8_t>(t.beyond[sq][d]) : 0;
    }
  }
  // Forward: orange down (dy > 0); blue up in 2 players, left (dx < 0) in 3-4; red up;
  // green right. Sideways (zero component along the forward axis) is allowed.
  for (int players = 2; players <= 4; ++players) {
    for (int colour = 0; colour < kMaxColours; ++colour) {
      std::uint8_t mask = 0;
      for (int d = 0; d < kDirections; ++d) {
        bool ok = false;
        switch (colour) {
          case 0:
            ok = kDy[d] >= 0;
            break;
          case 1:
            ok = players == 2 ? kDy[d] <= 0 : kDx[d] <= 0;
            break;
          case 2:
            ok = kDy[d] <= 0;
            break;
          default:
            ok = kDx[d] >= 0;
            break;
        }
        if (ok) mask = static_cast<std::uint8_t>(mask | (1u << d));
      }
      t.jumps[players - 2][colour] = mask;
    }
  }
  return t;
}

inline constexpr BoardTables kBoard = make_board_tables();

}  // namespace detail

constexpr CellType cell_type(int square) { return detail::kBoard.type[square]; }
// Normal squares and the centre (69 cells); pawns never touch the other 12.
constexpr bool is_playable(int square) {
  const CellType t = cell_type(square);
  return t == CellType::kNormal || t == CellType::kCentre;
}

// Neighbour of `square` in direction d, and the square beyond it (two steps), or -1 outside
// the 9×9 grid. Unplayable cells inside the grid are returned (the elimination test needs them).
constexpr int neighbour(int square, int direction) {
  return detail::kBoard.neighbour[square][direction];
}
constexpr int beyond(int square, int direction) { return detail::kBoard.beyond[square][direction]; }
// True when `a` and `b` are king-move neighbours.
constexpr bool adjacent(int a, int b) {
  const int dx = x_of(a) - x_of(b), dy = y_of(a) - y_of(b);
  return a != b && dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1;
}

// Jumps never go backwards (§3.2): bit d is set when a pawn of `colour` may jump in direction d
// in a game of `players` (2, 3 or 4). Steps are never restricted.
constexpr std::uint8_t jump_directions(int players, int colour) {
  return detail::kBoard.jumps[players - 2][colour];
}

// Square names (§1.2, §7.1): file a–i = x, rank 1–9 = 9 - y. "e5" for the centre.
std::string square_name(int square);
// Parses a square name of the 81 cells, case-insensitive ("E5" too); nullopt if it is not one.
std::optional<int> parse_square(std::string_view text);

// Colours (§2.1): names "Orange" "Blue" "Red" "Green", labels 'O' 'B' 'R' 'G'.
std::string colour_name(int colour);
char colour_label(int colour);
// Colour of a label letter (case-insensitive), or -1.
int colour_of_label(char label);

}  // namespace plateau::biloba
