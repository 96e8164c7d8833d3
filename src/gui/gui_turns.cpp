#include "gui/gui_turns.h"

#include "games/biloba/biloba_notation.h"
#include "games/biloba/biloba_print.h"

namespace plateau::gui {

using namespace plateau::biloba;

ClickHints click_hints(const ClickMachine& m) {
  ClickHints h;
  if (m.over()) return h;
  h.selected = m.selected();
  for (int sq = 0; sq < kSquares; ++sq) {
    ClickMachine probe = m;
    switch (probe.click_square(sq)) {
      case ClickEffect::kSelected:
        h.selectable.push_back(sq);
        break;
      case ClickEffect::kMoved:
      case ClickEffect::kEnteredCentre:
      case ClickEffect::kRefilled:
        h.targets.push_back(sq);
        break;
      default:
        break;
    }
  }
  return h;
}

std::vector<std::string> turn_events(const ClickTurn& t, const Position& before,
                                     const std::vector<std::string>& names, Lang lang) {
  std::vector<std::string> out;
  const std::string who = seat_display_name(t.seat, names);
  const bool forced = !t.token.empty() && t.token[0] == kCodeX;
  bool out_marker = false, pass = false;
  for (auto c : t.token) {
    if (c == kCodeOut || c == kCodePlusOut) out_marker = true;
    if (c == kCodePass) pass = true;
  }
  if (forced) out.push_back(who + " " + text(lang, Text::kForcedTake));
  int taken = 0;
  for (int c = 0; c < kMaxColours; ++c) {
    if (c != t.seat && before.count[c] > t.after.count[c]) taken += before.count[c] - t.after.count[c];
  }
  if (taken > 0) {
    out.push_back(who + " " + text(lang, Text::kTook) + " " + std::to_string(taken) + " " +
                  text(lang, Text::kPawnsTaken));
  }
  if (out_marker) out.push_back(who + " " + text(lang, Text::kIsOut));
  if (pass) out.push_back(who + " " + text(lang, Text::kPasses));
  return out;
}

std::string trace_turn(std::size_t index, const ClickTurn& t) {
  return "turn " + std::to_string(index) + " " + colour_label(t.seat) + " " +
         turn_token(t.token) + " " + format_position(t.after);
}

std::string result_text(const Position& final_board, const std::vector<std::string>& names,
                        Lang lang) {
  if (board_empty(final_board)) return "";
  const int w = winner(final_board);
  if (w < 0) return text(lang, Text::kDraw);
  return seat_display_name(w, names) + " " + text(lang, Text::kWins);
}

}  // namespace plateau::gui
