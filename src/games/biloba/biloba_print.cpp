#include "games/biloba/biloba_print.h"

namespace plateau::biloba {

std::string seat_display_name(int seat, const std::vector<std::string>& names) {
  if (seat >= 0 && seat < static_cast<int>(names.size()) && !names[seat].empty()) {
    return names[seat];
  }
  return colour_name(seat);
}

std::string result_line(Outcome outcome, int winner, const std::vector<std::string>& names,
                        const std::string& cause) {
  switch (outcome) {
    case Outcome::kOngoing:
      return "";
    case Outcome::kWin:
      return "Result: " + seat_display_name(winner, names) + " wins.";
    case Outcome::kDraw:
      return cause.empty() ? "Result: Draw." : "Result: Draw (" + cause + ").";
    case Outcome::kNoResult:
      return "Result: none.";
  }
  return "";
}

std::string board_text(const Position& pos, Outcome outcome, int winner,
                       const std::vector<std::string>& names, const std::string& cause) {
  const std::string files = "   a b c d e f g h i\n";
  std::string out = files;
  for (int y = 0; y < kSize; ++y) {
    const char rank = static_cast<char>('0' + 9 - y);
    out += rank;
    out += ' ';
    for (int x = 0; x < kSize; ++x) {
      const int sq = square_of(x, y);
      const std::uint8_t c = pos.cell[sq];
      out += ' ';
      out += c == kWall ? '#' : c < kMaxColours ? colour_label(c) : sq == kCentre ? '*' : '.';
    }
    out += "  ";
    out += rank;
    out += '\n';
  }
  out += files;
  if (outcome != Outcome::kOngoing) return out + result_line(outcome, winner, names, cause) + "\n";
  out += colour_name(pos.to_move) + " to move. Pawns:";
  for (int s = 0; s < pos.players; ++s) {
    out += (s == 0 ? " " : ", ") + colour_name(s) + " " + std::to_string(pos.count[s]);
  }
  return out + ".\n";
}

}  // namespace plateau::biloba
