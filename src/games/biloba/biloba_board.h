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
CellType cell_type(int square);
// Normal squares and the centre (69 cells); pawns never touch the other 12.
inline bool is_playable(int square) {
  const CellType t = cell_type(square);
  return t == CellType::kNormal || t == CellType::kCentre;
}

// Direction d is (dx, dy) in the original's scan order (§1.3): dx ascending, then dy ascending,
// so the opposite of direction d is 7 - d.
inline constexpr std::array<int, kDirections> kDx = {-1, -1, -1, 0, 0, 1, 1, 1};
inline constexpr std::array<int, kDirections> kDy = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int opposite(int direction) { return 7 - direction; }

// Neighbour of `square` in direction d, and the square beyond it (two steps), or -1 outside
// the 9×9 grid. Unplayable cells inside the grid are returned (the elimination test needs them).
int neighbour(int square, int direction);
int beyond(int square, int direction);
// True when `a` and `b` are king-move neighbours.
bool adjacent(int a, int b);

// Jumps never go backwards (§3.2): bit d is set when a pawn of `colour` may jump in direction d
// in a game of `players` (2, 3 or 4). Steps are never restricted.
std::uint8_t jump_directions(int players, int colour);

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
