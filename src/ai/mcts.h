#pragma once
// Monte-Carlo tree search (UCT) for any game of 2-4 seats, through the core interface only
// (DESIGN.md §4). Every node keeps the mean return of the seat that moved into it, so each seat
// maximises its own return (max-n style backup); terminal outcomes are backed up as proofs
// (MCTS-Solver): a child proven to give its mover the top return 1 proves the parent, and a
// node whose children are all proven takes the best of them for its mover.
//
// Deterministic: the same seed, options and sequence of searched states give the same moves.
#include <cstdint>
#include <memory>
#include <vector>

#include "ai/limits.h"
#include "ai/search_result.h"
#include "core/random.h"
#include "core/state.h"

namespace plateau::ai {

struct MctsOptions {
  // UCT exploration constant c in mean + c * sqrt(ln(N) / n), returns in [0, 1].
  double exploration = 0.7;
  // Plies of playout before the position is scored with State::evaluate(); 0 = play out to the
  // end. A negative value scores the new leaf with evaluate() directly (no playout).
  int playout_depth = 0;
  // Keep the subtree of the position reached when the next search starts from a descendant of
  // the previous root (found by hash and equality up to 4 plies deep).
  bool reuse_tree = true;
  // Progressive widening: a node visited n times may have at most 1 + widening * sqrt(n)
  // children; 0 = try every child once before revisiting any (plain UCT).
  double widening = 0.0;
  // Hard cap on tree nodes (memory); beyond it leaves are played out without being added.
  std::size_t max_nodes = 2'000'000;
  // Hard cap on moves kept in the tree (pending lists of expanded nodes, 48 bytes each: 4M ≈
  // 190 MB); beyond it no new node is expanded. With max_nodes (160 bytes a node) this bounds
  // the tree's memory (docs/AI.md, "Bounds").
  std::size_t max_stored_moves = 4'000'000;
  std::uint64_t seed = 0;
};

class Mcts {
 public:
  explicit Mcts(MctsOptions options);
  ~Mcts();

  // Searches `state` (not terminal) within `limits` (budget = playouts) and returns the child
  // with the most visits, or a proven win. Throws std::invalid_argument for a terminal state.
  SearchResult search(const State& state, const SearchLimits& limits);

  // Nodes in the tree after the last search (for tests of tree reuse).
  std::size_t tree_size() const;
  // Visits of the root carried over from the previous search by tree reuse.
  std::uint32_t reused_visits() const { return reused_visits_; }

 private:
  struct Node;
  int select_child(int node_index, int num_seats);
  int expand_child(int node_index, const State& state);
  bool try_reuse(const State& state);
  void compact_from(int new_root);
  void backup_proof(int node_index);

  MctsOptions options_;
  Rng rng_;
  std::vector<Node> nodes_;
  std::unique_ptr<State> root_state_;
  std::uint32_t reused_visits_ = 0;
  std::uint64_t work_ = 0;  // positions visited by bounded hooks in the current search
};

}  // namespace plateau::ai
