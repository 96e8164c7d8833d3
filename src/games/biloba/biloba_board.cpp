#include "games/biloba/biloba_board.h"

#include <cctype>

namespace plateau::biloba {

namespace {

struct Tables {
  std::array<CellType, kSquares> type{};
  std::array<std::array<std::int8_t, kDirections>, kSquares> neighbour{};
  std::array<std::array<std::int8_t, kDirections>, kSquares> beyond{};

  Tables() {
    for (int sq = 0; sq < kSquares; ++sq) {
      const int x = x_of(sq), y = y_of(sq);
      const bool edge_x = x == 0 || x == 8, edge_y = y == 0 || y == 8;
      const bool near_x = x <= 1 || x >= 7, near_y = y <= 1 || y >= 7;
      if (edge_x && edge_y) {
        type[sq] = CellType::kNoTile;
      } else if ((edge_x && near_y) || (edge_y && near_x)) {
        type[sq] = CellType::kDecorative;  // (1,0) (0,1) and their mirror images
      } else if (sq == kCentre) {
        type[sq] = CellType::kCentre;
      } else {
        type[sq] = CellType::kNormal;
      }
      for (int d = 0; d < kDirections; ++d) {
        neighbour[sq][d] = at(x + kDx[d], y + kDy[d]);
        beyond[sq][d] = at(x + 2 * kDx[d], y + 2 * kDy[d]);
      }
    }
  }

  static std::int8_t at(int x, int y) {
    if (x < 0 || x >= kSize || y < 0 || y >= kSize) return -1;
    return static_cast<std::int8_t>(square_of(x, y));
  }
};

const Tables& tables() {
  static const Tables kTables;
  return kTables;
}

}  // namespace

CellType cell_type(int square) { return tables().type[square]; }
int neighbour(int square, int direction) { return tables().neighbour[square][direction]; }
int beyond(int square, int direction) { return tables().beyond[square][direction]; }

bool adjacent(int a, int b) {
  const int dx = x_of(a) - x_of(b), dy = y_of(a) - y_of(b);
  return a != b && dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1;
}

std::uint8_t jump_directions(int players, int colour) {
  // Forward: orange down (dy > 0); blue up in 2 players, left (dx < 0) in 3-4; red up;
  // green right. Sideways (zero component along the forward axis) is allowed.
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
    if (ok) mask |= static_cast<std::uint8_t>(1u << d);
  }
  return mask;
}

std::string square_name(int square) {
  return std::string{static_cast<char>('a' + x_of(square)),
                     static_cast<char>('0' + (9 - y_of(square)))};
}

std::optional<int> parse_square(std::string_view text) {
  if (text.size() != 2) return std::nullopt;
  const char f = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  const char r = text[1];
  if (f < 'a' || f > 'i' || r < '1' || r > '9') return std::nullopt;
  return square_of(f - 'a', 9 - (r - '0'));
}

std::string colour_name(int colour) {
  static const char* const kNames[] = {"Orange", "Blue", "Red", "Green"};
  return kNames[colour];
}

char colour_label(int colour) { return "OBRG"[colour]; }

int colour_of_label(char label) {
  switch (std::toupper(static_cast<unsigned char>(label))) {
    case 'O':
      return 0;
    case 'B':
      return 1;
    case 'R':
      return 2;
    case 'G':
      return 3;
    default:
      return -1;
  }
}

}  // namespace plateau::biloba
