#pragma once
// One rung of a game's bot ladder (DESIGN.md §4): which search a level plays with and how large
// a budget. A game lists its five levels in its own folder (Game::bot_ladder); src/ai turns a
// rung into its search options and never names a game. Budgets are counted in playouts or
// nodes, never in time, so that the same seed plays the same game on any machine and ratings
// of levels mean something.
#include <cstddef>
#include <cstdint>

namespace plateau {

struct BotLevel {
  enum class Search {
    kMcts,       // UCT with playouts (any number of seats)
    kAlphaBeta,  // negamax with iterative deepening (2 seats) or paranoid (3+ seats)
    kBestReply,  // best-reply search (3+ seats: one opponent deviates between root turns)
  };

  Search search = Search::kMcts;
  std::uint64_t budget = 1000;  // playouts (kMcts) or nodes (the alpha-beta searches) per move

  // kMcts: plies of playout before scoring with State::evaluate() (0 = to the end), and the
  // UCT exploration constant.
  int playout_depth = 0;
  double exploration = 0.7;

  // kAlphaBeta / kBestReply: search only the first `max_moves` moves of the game's order
  // (0 = every move), and ask the game's exact solver at the root first (`use_exact`).
  std::size_t max_moves = 0;
  bool use_exact = false;

  static BotLevel mcts(std::uint64_t playouts, int playout_depth = 0, double exploration = 0.7) {
    BotLevel l;
    l.search = Search::kMcts;
    l.budget = playouts;
    l.playout_depth = playout_depth;
    l.exploration = exploration;
    return l;
  }
  static BotLevel alpha_beta(std::uint64_t nodes, Search search = Search::kAlphaBeta) {
    BotLevel l;
    l.search = search;
    l.budget = nodes;
    return l;
  }
};

}  // namespace plateau
