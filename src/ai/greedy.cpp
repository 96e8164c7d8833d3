#include "ai/greedy.h"

#include <stdexcept>

namespace plateau::ai {

SearchResult greedy_move(const State& state, Rng& rng) {
  if (state.is_terminal()) throw std::invalid_argument("greedy: the game is over");
  SearchResult r;
  if (auto win = state.find_winning_move()) {
    r.best = *win;
    r.pv = {*win};
    r.value = 1.0;
    r.exact = true;
    r.info = "immediate win";
    return r;
  }
  const auto seat = static_cast<std::size_t>(state.current_seat());
  std::vector<Move> moves = state.distinct_moves();
  std::vector<std::size_t> best;
  double best_value = -1.0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    auto child = state.clone();
    child->apply(moves[i]);
    const double v = child->evaluate()[seat];
    if (v > best_value + 1e-12) {
      best_value = v;
      best.assign(1, i);
    } else if (v > best_value - 1e-12) {
      best.push_back(i);
    }
  }
  r.best = moves[best[rng.below(static_cast<std::uint32_t>(best.size()))]];
  r.pv = {r.best};
  r.value = best_value;
  r.iterations = moves.size();
  r.info = std::to_string(moves.size()) + " moves evaluated";
  return r;
}

}  // namespace plateau::ai
