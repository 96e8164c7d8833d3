#pragma once
// Alpha-beta search through the core interface (DESIGN.md §4): negamax with iterative
// deepening, a transposition table keyed by State::hash(), and move ordering (table move,
// killer moves, then the game's order_moves hint). Two seats: plain negamax, correct also when a
// seat moves twice in a row (forced passes). More seats: the paranoid reduction (the root seat
// against a coalition of all others), or best-reply search (BRS+: of all opponents between two
// root turns only one deviates; the others play their first move in the game's order).
//
// Leaves are scored with State::evaluate(); wins and losses found by the search are exact and
// prefer the shortest win. A position whose State::repetition_key() is among the game's earlier
// positions (State::earlier_positions(), read once at the root) or on the searched line scores
// State::no_progress_values() for the root seat, so the side ahead avoids repeating and the side
// behind may seek it. Deterministic: the node budget, not the clock, decides the move
// unless a movetime cap stops the search first.
#include <cstdint>
#include <memory>
#include <vector>

#include "ai/limits.h"
#include "ai/search_result.h"
#include "core/state.h"

namespace plateau::ai {

enum class MultiSeatMode { kParanoid, kBestReply };

struct AlphaBetaOptions {
  int max_depth = 64;                 // deepest iteration, plies (BRS: root-to-root rounds)
  std::size_t tt_entries = 1u << 20;  // transposition table size (rounded to a power of 2)
  MultiSeatMode multi_seat = MultiSeatMode::kParanoid;
  // Beam: search only the first `max_moves` moves of the game's order (order_moves) below the
  // root and 2 * max_moves at the root; 0 = every move. For games with hundreds of moves per
  // position (Phutball placements) whose order puts the relevant moves first.
  std::size_t max_moves = 0;
  // Ask State::exact_move_values() at the root first and play its best move if it answers.
  bool use_exact = false;
  std::uint64_t exact_budget = 1'000'000;  // new positions the exact solver may visit
};

class AlphaBeta {
 public:
  explicit AlphaBeta(AlphaBetaOptions options);
  ~AlphaBeta();

  // Searches `state` (not terminal) within `limits` (budget = nodes). Throws
  // std::invalid_argument for a terminal state.
  SearchResult search(const State& state, const SearchLimits& limits);

  // Forgets what earlier searches learnt (the transposition table's entries and the killer
  // moves): the next search visits the tree a new AlphaBeta would, but keeps the table's memory
  // (no new 24 MB to map and clear). O(1): entries carry the generation they were written in.
  // A bot keeps its searches' knowledge from move to move and does not call this; a benchmark
  // that measures one search calls it between searches (bench/ai_bench.cpp).
  void forget();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Score scale shared by the searches: heuristic scores lie within ±kEvalScale, wins and losses
// are ±(kWinScore - plies to the end).
inline constexpr int kEvalScale = 10000;
inline constexpr int kWinScore = 30000;

// The value of `state` for `seat` on the integer scale above (`ply` = distance from the root,
// used to prefer short wins).
int seat_score(const State& state, int seat, int ply);

// Maps an integer score back to an expected return in [0, 1] for 2 seats.
double score_to_return(int score);

}  // namespace plateau::ai
