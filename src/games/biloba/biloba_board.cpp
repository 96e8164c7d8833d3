#include "games/biloba/biloba_board.h"

#include <cctype>

namespace plateau::biloba {

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
