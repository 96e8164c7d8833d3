#pragma once
// Biloba as a Plateau game (specs/biloba.md, ruleset `classic`): the core interface over
// biloba_rules.h. Options (§9, the rules ones): players=2|3|4, no_legal_move=pass|wait,
// turn_cap=N (0 = none), no_progress=N (0 = off; Plateau only, see below). Seat types, names and
// bots are table settings, not game options.
//
// A Move is a FULL TURN (§7.2): a step, jump or centre walk with its refill choices, or the
// turn-start forms. legal_moves() lists every turn token:
//   * a normal turn: every move × every sequence of refill choices (orders included);
//   * a turn that starts with forced captures: only `x/...` tokens (one per refill choice
//     sequence; just `x` when no refill is asked, e.g. the game ended), with `+out` when the
//     seat is then eliminated;
//   * an elimination with no capture: the single move `out`;
//   * no legal move: the single move `pass` (no_legal_move=pass, the default).
// distinct_moves() keeps one token per resulting position (a step and a centre walk to the same
// square; refills made in another order).
// Seats with no pawns have no turns: current_seat() skips them.
//
// The game is over when §6.1 says so, when turn_cap turns have been played, when no_progress
// turns in a row have passed without a capture or an elimination, or (only with
// no_legal_move=wait) when the seat to move is stuck: the original then waits for ever and can
// only be stopped by "End game", which leaves no result. Returns:
//   * a win: 1 for the winner, 0 for the others;
//   * "Draw" (§6.3), the turn cap and the no-progress rule: shared equally by the seats that
//     still have pawns; when only one seat has pawns (a lone survivor with one pawn, which the
//     original calls "Draw"), by every seat;
//   * no result (every pawn gone, or stuck with wait): shared equally by every seat.
// With turn_cap > 0 the number of turns played is part of the position and of its string.
//
// The no-progress rule (Plateau only, issue 14; §10.13 says the original's games can last for
// ever): a turn is *quiet* when it removes no pawn, i.e. has no capture batch (the `x` captures
// at the start of a turn count) and no elimination (`out`, `+out`); refills only move pawns.
// After `no_progress` quiet turns in a row the game ends in a draw among the seats still on the
// board; result_text() then says why ("Result: Draw (300 turns without a capture)."), and
// termination() is "no progress" (the turn cap: "turn cap"). Default 300 for `biloba`; the preset
// `classic` (biloba 0.9.3's rules) and everything that speaks 0.9.3 (the port-8000 tables, .blb
// replays, the golden records) use no_progress=0, the original's endless games.
// The count of quiet turns is kept in the state, NOT in the §7.5 position string, hash() or
// equals(): a parsed position starts counting at 0 (a table restored from the store replays its
// moves and so gets its count back), and positions that repeat during a shuffle stay equal for
// repetition detection. The AI sees the end through clone() and is_terminal().
#include <memory>

#include "core/game.h"
#include "games/biloba/biloba_print.h"
#include "games/biloba/biloba_rules.h"

namespace plateau::biloba {

// The default of no_progress: quiet turns in a row that draw a `biloba` game.
inline constexpr int kDefaultNoProgress = 300;

// Registry entry: name "biloba", the options above with their defaults (preset `classic`).
GameInfo game_info();

class BilobaGame : public Game {
 public:
  explicit BilobaGame(OptionValues options);

  const GameInfo& info() const override;
  const OptionValues& options() const override { return options_; }
  int num_seats() const override { return players_; }
  // "O", "B", "R", "G" and "Orange", "Blue", "Red", "Green" (§2.1).
  std::string seat_label(int seat) const override;
  std::string seat_name(int seat) const override;
  RecordStyle record_style() const override { return RecordStyle::kSeatPrefixed; }
  // Levels 1-5 (biloba_levels.cpp): alpha-beta with 2 seats, best-reply search with more.
  std::vector<BotLevel> bot_ladder() const override;
  std::unique_ptr<State> initial_state() const override;
  // The position string of §7.5 (plus the turns played when turn_cap > 0).
  std::unique_ptr<State> parse_state(std::string_view text) const override;
  // A state holding `pos` (a seat to move without pawns is moved on to the next seat).
  std::unique_ptr<State> make_state(const Position& pos) const;

  int players() const { return players_; }
  bool pass_when_stuck() const { return pass_; }
  int turn_cap() const { return turn_cap_; }
  // Quiet turns in a row that end the game in a draw; 0 = never.
  int no_progress() const { return no_progress_; }

 private:
  OptionValues options_;
  int players_;
  bool pass_;
  int turn_cap_;
  int no_progress_;
};

class BilobaState : public State {
 public:
  BilobaState(std::shared_ptr<const BilobaGame> game, const Position& pos);

  const std::shared_ptr<const Game>& game() const override { return game_base_; }
  std::unique_ptr<State> clone() const override;
  int current_seat() const override {
    return outcome_ == Outcome::kOngoing ? pos_.to_move : kTerminalSeat;
  }
  int ply() const override { return ply_; }
  std::vector<Move> legal_moves() const override;
  std::vector<Move> distinct_moves() const override;
  // Turns in choice order, one per resulting position, until budget.limit choices were made
  // (every move × refill order is a path of choices; an 8-pawn capture has 8! refill orders).
  std::vector<Move> bounded_distinct_moves(WorkBudget& budget) const override;
  // The same list in order_moves()'s order, from the same pass: the generator knows which turns
  // capture and what they gain (biloba_lists.cpp).
  std::vector<Move> ordered_distinct_moves(WorkBudget& budget) const override;
  void apply(const Move& move) override;
  std::vector<double> returns() const override;
  // "Result: Orange wins.", "Result: Draw." or "Result: none." (§8); "" before the end. A draw
  // by turn_cap or no_progress says why: "Result: Draw (300 turns without a capture)." /
  // "Result: Draw (turn cap of 50 turns)."
  std::string result_text() const override;
  // "no progress", "turn cap", or "" (the rules of §6 ended it, or not over).
  std::string termination() const override;
  // False for a seat with no pawns left (it never moves again) and for every seat once over.
  bool seat_in_play(int seat) const override;
  std::string move_to_string(const Move& move) const override;
  Move parse_move(std::string_view text) const override;
  // Steps are the squares clicked, the minimal click sequence of §7.3 ("f3", "e4", "c4", "d4"
  // for f3-e4/c4-d4); `x` without refills, `out`, `x+out` and `pass` have no steps.
  StepChoices next_steps(const std::vector<std::string>& prefix) const override;
  Move move_from_steps(const std::vector<std::string>& steps) const override;
  std::vector<std::string> steps_of(const Move& move) const override;
  std::string to_text(const std::vector<std::string>& seat_names = {}) const override;
  std::string serialize() const override;
  std::uint64_t hash() const override;
  bool equals(const State& other) const override;

  // AI hooks (core/state.h), in biloba_ai.cpp: pawns and threatened pawns as evaluation,
  // captures first as move order and playout bias, and the `classic` player (§14).
  std::vector<double> evaluate() const override;
  void order_moves(std::vector<Move>& moves) const override;
  Move playout_move(Rng& rng) const override;
  std::optional<Move> builtin_player_move(std::string_view player, Rng& rng) const override;
  // Repetition (core/state.h), in biloba_history.cpp: the key is the cells and the seat to
  // move (no turn counters); the earlier positions are those since the last turn that removed a
  // pawn (pawns only disappear, so nothing before it can recur), at most the last 512-1,024;
  // no progress = a draw shared by the seats that still have pawns (§6.3, as the turn cap).
  std::uint64_t repetition_key() const override;
  std::vector<std::uint64_t> earlier_positions() const override;
  std::vector<double> no_progress_values() const override;

  const Position& position() const { return pos_; }
  Outcome outcome() const { return outcome_; }
  // Quiet turns in a row so far (turns without a capture or an elimination).
  int quiet_turns() const { return quiet_; }
  // The winning seat when outcome() is kWin, else -1.
  int winner_seat() const { return outcome_ == Outcome::kWin ? winner(pos_) : -1; }
  // The turn of the seat to move, already past its forced captures / elimination test.
  Turn start_turn() const { return Turn(pos_, game_->pass_when_stuck()); }

 private:
  void update_outcome();
  // Why a draw by turn_cap or no_progress happened, for the result line; "" otherwise.
  std::string draw_cause() const;
  // Runs the prefix of steps through a Turn; throws RuleError for a step that is not accepted.
  Turn run_steps(const std::vector<std::string>& steps) const;

  // The repetition keys of the earlier positions: apply() adds the key of the position it
  // leaves (`before_key`), or forgets them all when the turn removed a pawn. The newest
  // recent_count_ are in recent_ (oldest first), the older ones in an immutable list of chunks
  // shared between clones; a full recent_ becomes one chunk. (One allocation every kRecent
  // turns instead of one per turn: a search clones and applies at every node.)
  struct HistoryNode;
  static constexpr int kRecent = 8;
  void note_turn(std::uint64_t before_key, bool removed_pawn);
  void flush_recent();
  // key_ = the repetition key of pos_, recomputed (81 cells) or updated for one pawn that went
  // from `from` to `to` while the turn passed from `old_seat` to pos_.to_move. Kept in the
  // state because the search asks for it (and for hash()) at every node.
  void refresh_key();
  void slide_key(int from, int to, int colour, int old_seat);
  std::uint64_t key_ = 0;
  std::array<std::uint64_t, kRecent> recent_{};
  int recent_count_ = 0;
  std::shared_ptr<const HistoryNode> history_;

  // The game is owned once, through the interface's pointer; game_ is the same object seen as
  // a BilobaGame (one reference count to bump per clone instead of two: the search clones at
  // every node).
  std::shared_ptr<const Game> game_base_;
  const BilobaGame* game_;
  Position pos_;
  int ply_ = 0;
  int quiet_ = 0;  // quiet turns in a row (the no-progress rule); not part of the position
  enum class Cause : std::uint8_t { kRules, kTurnCap, kNoProgress } cause_ = Cause::kRules;
  Outcome outcome_ = Outcome::kOngoing;
};

}  // namespace plateau::biloba
