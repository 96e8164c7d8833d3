#include "games/bohnduell/bohnduell_print.h"

#include <cstdio>

namespace plateau::bohnduell {

namespace {

std::string cell(int value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%4d", value);
  return buf;
}

std::string store_box(int value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "[%3d]", value);
  return buf;
}

std::string label(char seat, int d) { return "  " + std::string(1, seat) + std::to_string(d); }

}  // namespace

std::string game_over_line(const Rules& rules, const Position& pos) {
  if (!pos.over) return "";
  const int a = score(rules, pos, 0);
  const int b = score(rules, pos, 1);
  return "Game over: A " + std::to_string(a) + ", B " + std::to_string(b) + ". " +
         (a > b ? "A wins." : b > a ? "B wins." : "Draw.");
}

std::string board_text(const Rules& rules, const Position& pos, int viewer,
                       const std::vector<std::string>& names) {
  const int top = 1 - viewer;
  const char top_seat = top == 0 ? 'A' : 'B';
  const char low_seat = viewer == 0 ? 'A' : 'B';
  const Side& t = pos.side[top];
  const Side& v = pos.side[viewer];
  std::string out = "     ";
  for (int d = 1; d <= kBowls; ++d) out += label(top_seat, d);
  out += "\n" + store_box(t.store);
  for (int d = 1; d <= kBowls; ++d) out += cell(t.bowl[d]);
  out += "\n     ";
  for (int d = kBowls; d >= 1; --d) out += cell(v.bowl[d]);
  out += "  " + store_box(v.store) + "\n     ";
  for (int d = kBowls; d >= 1; --d) out += label(low_seat, d);
  out += "\n";
  for (int seat : {top, viewer}) {
    const char name = seat == 0 ? 'A' : 'B';
    out += std::string(1, name);
    if (static_cast<std::size_t>(seat) < names.size() && !names[seat].empty()) {
      out += " " + names[seat];
    }
    out += ": supply " + std::to_string(pos.side[seat].supply) + ", store " +
           std::to_string(pos.side[seat].store) + "\n";
  }
  if (pos.over) {
    out += game_over_line(rules, pos) + "\n";
  } else {
    out += std::string(1, pos.to_move == 0 ? 'A' : 'B') + " to move.\n";
  }
  return out;
}

}  // namespace plateau::bohnduell
