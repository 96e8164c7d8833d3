#pragma once
// A game state (DESIGN.md §2): a value that is cheap to copy (clone), comparable, hashable
// (Zobrist) and serialisable. It answers whose turn it is, the legal moves, applies moves, gives
// per-seat results, prints the text board, and drives step-by-step move input for people.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/move.h"
#include "core/random.h"

namespace plateau {

class Game;

// The seat value meaning "no one: the game is over".
inline constexpr int kTerminalSeat = -1;

// Answer to a step query: what a person may click or type next after a prefix of steps.
struct StepChoices {
  std::vector<std::string> next;  // legal next steps, canonical text, sorted, no duplicates
  bool complete = false;          // the prefix itself already forms a full legal move
};

// A cap on the work of one bounded move generation or win search (DESIGN.md §4: bot time and
// memory), and what the call spent. Work is counted in positions visited (for Phutball, jump
// states; for Biloba, intermediate turn states), so that a bound is deterministic and fixes
// both the time (positions per second are known, docs/PERFORMANCE.md) and the memory (one
// move at most per position) of the call.
struct WorkBudget {
  WorkBudget() = default;
  explicit WorkBudget(std::uint64_t limit_, std::function<bool()> stop_ = {})
      : limit(limit_), stop(std::move(stop_)) {}

  std::uint64_t limit = 0;      // positions the call may visit
  std::function<bool()> stop;   // optional: polled every few thousand positions; true = stop now
  std::uint64_t used = 0;       // out: positions visited
  bool truncated = false;       // out: the call stopped early (limit or stop), its answer is partial
};

class State {
 public:
  virtual ~State() = default;

  // The game this state belongs to (never null; the state keeps it alive).
  virtual const std::shared_ptr<const Game>& game() const = 0;
  // An independent copy.
  virtual std::unique_ptr<State> clone() const = 0;

  // The seat to move, 0-based, or kTerminalSeat once the game is over.
  virtual int current_seat() const = 0;
  bool is_terminal() const { return current_seat() == kTerminalSeat; }
  // Number of moves applied since the initial (or parsed) position.
  virtual int ply() const = 0;

  // Every legal move of the seat to move, each distinct as a move (Phutball counts every jump
  // path). Empty exactly when the state is terminal. Order is the game's own, deterministic.
  virtual std::vector<Move> legal_moves() const = 0;
  // The moves the AI considers: one move per distinct resulting position. Defaults to
  // legal_moves(); games where many moves reach the same position override it.
  virtual std::vector<Move> distinct_moves() const { return legal_moves(); }
  // distinct_moves() within `budget`: every move returned is legal (one per resulting
  // position), and at least one is returned for a non-terminal state, but when
  // budget.truncated is set the list is a subset. Default: distinct_moves(), used = its size
  // (games whose move lists are small). Bots call this, never legal_moves().
  virtual std::vector<Move> bounded_distinct_moves(WorkBudget& budget) const {
    std::vector<Move> moves = distinct_moves();
    budget.used += moves.size();
    return moves;
  }
  // Applies `move`, which must be one of legal_moves() (or distinct_moves()) of this state.
  // Behaviour for any other move is undefined: validate text input with parse_move first.
  virtual void apply(const Move& move) = 0;

  // Per-seat result once terminal, each in [0, 1] and summing to 1 (win 1, loss 0, a draw shared
  // equally between the drawing seats). Before the end: all zeros.
  virtual std::vector<double> returns() const = 0;
  // One line describing the outcome (e.g. "Game over: A 1, B 2. B wins."), "" before the end.
  virtual std::string result_text() const = 0;
  // Why a finished game ended when it is not the game's ordinary end (checkmate-like rules):
  // a short lower-case phrase such as "no progress" or "turn cap" (Biloba), "" otherwise and
  // before the end. Records write it as their Termination tag; the server's end event carries
  // it as its reason.
  virtual std::string termination() const { return {}; }
  // False when `seat` will never move again in this game (Biloba: a colour with no pawns left;
  // current_seat() skips it), and for every seat once terminal. A table answers such a seat's
  // resignation at once instead of waiting for a turn that never comes.
  virtual bool seat_in_play(int seat) const { return !is_terminal() && seat >= 0; }

  // Canonical notation of `move` in this position (the position the move is played from).
  virtual std::string move_to_string(const Move& move) const = 0;
  // Parses `text` (case-insensitive) into a legal move of this position. Throws RuleError with
  // a message naming the problem (bad syntax, which rule forbids it, game over).
  virtual Move parse_move(std::string_view text) const = 0;

  // Step input. `prefix` is a list of steps already taken (canonical or case-insensitive text).
  // Throws RuleError if the prefix is not the start of any legal move. Never enumerates all
  // moves where that could explode (Phutball jump paths).
  virtual StepChoices next_steps(const std::vector<std::string>& prefix) const = 0;
  // The move formed by a complete step sequence; throws RuleError if `steps` is not complete.
  virtual Move move_from_steps(const std::vector<std::string>& steps) const = 0;
  // The minimal step sequence that enters `move` (inverse of move_from_steps).
  virtual std::vector<std::string> steps_of(const Move& move) const = 0;

  // The game's text board print-out (fixed format of its spec), ending with a newline.
  // `seat_names` are the players' names by seat (may be empty: the print-out then omits them).
  virtual std::string to_text(const std::vector<std::string>& seat_names = {}) const = 0;
  // One-line position string; Game::parse_state(serialize()) gives an equal state.
  virtual std::string serialize() const = 0;
  // Zobrist hash of the position (everything that affects future play).
  virtual std::uint64_t hash() const = 0;
  // Same game, same position and history-relevant data.
  virtual bool equals(const State& other) const = 0;

  // ---- Optional hooks for the AI (DESIGN.md §4). Games override what only they know; the
  // defaults below are correct for any game, just slower or weaker.

  // Heuristic value of the position for every seat: one number per seat in [0, 1], larger is
  // better (an estimate of the seat's return). Terminal states MUST give returns(). Default: the
  // returns when terminal, otherwise an equal share 1/num_seats for everyone.
  virtual std::vector<double> evaluate() const;
  // One move for a fast random playout (MCTS); `state` must not be terminal. Default: uniform
  // over legal_moves(). Games may bias it (prefer captures, avoid suicide) or return a move
  // that is not in legal_moves() but is in distinct_moves().
  virtual Move playout_move(Rng& rng) const {
    std::vector<Move> moves = legal_moves();
    return moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
  }
  // Reorders `moves` (a subset of distinct_moves() of this state) so that the moves most likely
  // to be best come first; alpha-beta and MCTS expansion follow this order. Must be
  // deterministic. Default: leaves the order unchanged.
  virtual void order_moves(std::vector<Move>& moves) const { (void)moves; }
  // bounded_distinct_moves(budget) put in order by order_moves(), in one call: the same list,
  // the same budget spent. The searches ask for this at every node; a game whose generator
  // knows what order_moves() would look at (Biloba: which turns capture, and how much) overrides
  // it to skip the second pass. Default: the two calls.
  virtual std::vector<Move> ordered_distinct_moves(WorkBudget& budget) const {
    std::vector<Move> moves = bounded_distinct_moves(budget);
    order_moves(moves);
    return moves;
  }
  // A move that ends the game this turn with a win for the seat to move, if the game can find
  // one quickly and exactly (Phutball: a jump path over the goal line). std::nullopt means "none
  // found", which is only a proof of "no win" where the game's documentation says so. Default:
  // std::nullopt (searches discover wins by themselves).
  virtual std::optional<Move> find_winning_move() const { return std::nullopt; }
  // find_winning_move() within `budget`: std::nullopt with budget.truncated set means "not
  // known". Default: find_winning_move().
  virtual std::optional<Move> bounded_winning_move(WorkBudget& budget) const {
    (void)budget;
    return find_winning_move();
  }
  // Exact values of every move of distinct_moves() (same order) for the seat to move, under
  // perfect play by everyone: the game's own integer scale (BohnDuell: the final store margin),
  // > 0 a win, 0 a draw, < 0 a loss; larger is better. std::nullopt when the game cannot solve
  // this position within `node_budget` nodes or before `stop()` returns true (may be empty).
  // Default: std::nullopt (no exact solver).
  virtual std::optional<std::vector<int>> exact_move_values(
      std::uint64_t node_budget, const std::function<bool()>& stop) const {
    (void)node_budget;
    (void)stop;
    return std::nullopt;
  }

  // A move chosen by one of the game's own built-in players, by name (Biloba: "classic", the
  // replica of biloba 0.9.3's computer player, specs/biloba.md §14), drawing any randomness
  // from `rng`; `state` must not be terminal. std::nullopt if the game has no player of that
  // name. Default: std::nullopt.
  virtual std::optional<Move> builtin_player_move(std::string_view player, Rng& rng) const {
    (void)player;
    (void)rng;
    return std::nullopt;
  }

  // ---- Repetition (DESIGN.md §4, docs/AI.md "Repetition"). A search scores a position that
  // repeats an earlier one of the game, or one on its own line, as "no progress" so that the
  // side that is ahead avoids shuffling and the side that is behind may seek it.

  // Key of the position for repetition: equal for positions that play the same from here on,
  // leaving out counters that only count turns (a turn cap, a no-progress count). Default:
  // hash().
  virtual std::uint64_t repetition_key() const { return hash(); }
  // repetition_key() of the earlier positions of this game that this one may still repeat (for
  // Biloba: those since the last capture or elimination), any order. The state carries them
  // itself (immutable, shared between clones), so a bot on another thread sees a consistent
  // history. Default: none known (a parsed position, or a game without history).
  virtual std::vector<std::uint64_t> earlier_positions() const { return {}; }
  // The value of the game for every seat if it stopped here for want of progress, in [0, 1]
  // (Biloba: a draw shared by the seats still on the board). Default: equal shares.
  virtual std::vector<double> no_progress_values() const {
    const std::size_t n = returns().size();
    return std::vector<double>(n, n == 0 ? 0.0 : 1.0 / static_cast<double>(n));
  }

  // Parses and applies `text`; throws RuleError (state unchanged) if it is not legal here.
  void apply_text(std::string_view text) { apply(parse_move(text)); }
};

inline std::vector<double> State::evaluate() const {
  if (is_terminal()) return returns();
  const std::size_t n = returns().size();
  return std::vector<double>(n, n == 0 ? 0.0 : 1.0 / static_cast<double>(n));
}

}  // namespace plateau
