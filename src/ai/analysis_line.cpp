#include "ai/analysis_line.h"

#include "core/error.h"
#include "core/game.h"
#include "core/text.h"

namespace plateau::ai {

std::vector<LineMove> principal_line(const State& state, const std::vector<Move>& pv,
                                     std::size_t max_moves) {
  std::vector<LineMove> out;
  auto s = state.clone();
  const int seats = s->game()->num_seats();
  for (const Move& m : pv) {
    if (out.size() >= max_moves || s->is_terminal()) break;
    LineMove lm;
    lm.ply = s->ply() + 1;
    lm.seat = s->current_seat();
    lm.label = s->game()->seat_label(lm.seat);
    try {
      lm.move = s->move_to_string(m);
      s->apply(m);
    } catch (const RuleError&) {
      break;
    }
    lm.position = s->serialize();
    lm.pass_after = seats == 2 && !s->is_terminal() && s->current_seat() == lm.seat;
    out.push_back(std::move(lm));
  }
  return out;
}

std::string line_text(const Game& game, const std::vector<LineMove>& line) {
  std::vector<std::string> tokens;
  const bool prefixed = game.record_style() == RecordStyle::kSeatPrefixed;
  for (const LineMove& m : line) {
    if (!prefixed) {
      tokens.push_back(std::to_string(m.ply) + ". " + m.move);
      continue;
    }
    tokens.push_back(m.label + ":" + m.move);
    if (m.pass_after) tokens.push_back(game.seat_label(1 - m.seat) + ":pass");
  }
  return join(tokens, " ");
}

}  // namespace plateau::ai
