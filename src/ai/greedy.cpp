#include "ai/greedy.h"

#include <stdexcept>

namespace plateau::ai {

SearchResult greedy_move(const State& state, Rng& rng, const SearchLimits& limits) {
  if (state.is_terminal()) throw std::invalid_argument("greedy: the game is over");
  const Deadline deadline(limits);
  auto stop = [&deadline] { return deadline.expired(); };
  SearchResult r;
  WorkBudget win_budget{kRootWinWork, stop};
  if (auto win = state.bounded_winning_move(win_budget)) {
    r.best = *win;
    r.pv = {*win};
    r.value = 1.0;
    r.exact = true;
    r.work = win_budget.used;
    r.info = "immediate win";
    return r;
  }
  WorkBudget move_budget{kRootMoveWork, stop};
  std::vector<Move> moves = state.bounded_distinct_moves(move_budget);
  r.work = win_budget.used + move_budget.used;
  if (moves.size() > kGreedyMaxEvaluations) {
    state.order_moves(moves);
    moves.resize(kGreedyMaxEvaluations);
  }
  const auto seat = static_cast<std::size_t>(state.current_seat());
  std::vector<std::size_t> best;
  double best_value = -1.0;
  std::size_t evaluated = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    // The first move is always evaluated, so there is a best one.
    if (i > 0 && deadline.expired()) break;
    auto child = state.clone();
    child->apply(moves[i]);
    const double v = child->evaluate()[seat];
    ++evaluated;
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
  r.iterations = evaluated;
  r.info = std::to_string(evaluated) + " moves evaluated";
  if (move_budget.truncated || evaluated < moves.size()) r.info += " (bounded)";
  return r;
}

}  // namespace plateau::ai
