// BohnDuell's exact move values for the AI: the table of this rule set if one is known (solved by
// `plateau solve` or in memory for small supplies), exact search where it has no entry.
#include "games/bohnduell/bohnduell_game.h"
#include "games/bohnduell/bohnduell_solver.h"

namespace plateau::bohnduell {

std::optional<std::vector<int>> BohnDuellState::exact_move_values(
    std::uint64_t node_budget, const std::function<bool()>& stop) const {
  if (pos_.over) return std::nullopt;
  ExactSearcher searcher(rules(), find_table(rules()), node_budget, stop);
  // Moves come in code order, as legal_moves() lists them.
  return searcher.move_values(pos_);
}

}  // namespace plateau::bohnduell
