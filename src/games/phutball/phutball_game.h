#pragma once
// Phutball as a Plateau game (specs/phutball.md): the core interface over phutball_rules.h.
// Seat 0 is Ohs ("O"), who moves first and attacks row 19 (20 on a half-point handicap board);
// seat 1 is Eks ("X"). Records number plies globally as pbmserv does (RecordStyle::kNumbered).
//
// Moves (Move codes): a placement is one code, the mailbox cell of the point; a ball move is the
// ball's cell followed by every landing cell (phutball_rules.h describes the cells).
//
// Step input (State::next_steps): a placement is one step, the point ("H11"); a ball move is the
// ball's point, then each landing point ("H10", "H13", "L10"; off-board landings such as "H20").
// A prefix of a ball move is complete once it has at least one hop and may end there. A landing
// is offered only if some legal move goes through it, found by a DFS over jump states that stops
// at the first legal ending: a step query never enumerates jump paths (§13.2).
//
// legal_moves() lists every jump path, as perft counts them (§13.1); on pathological positions
// (a ball inside a 7×7 block of men: 12.7M paths, TV-20) that list is huge, which is accepted:
// bots use distinct_moves(), one move per resulting position (§13.2).
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/game.h"
#include "games/phutball/phutball_print.h"
#include "games/phutball/phutball_rules.h"

namespace plateau::phutball {

// Registry entry: name "phutball", the options of §11 with their defaults (ruleset `pbmserv`),
// presets `pbmserv` (the defaults) and `winningways`.
GameInfo game_info();

// Parses a handicap (§2.3): a multiple of 0.5 with |N| ≤ 8.5, written "2", "-3", "0.5",
// "+1.5", "2.0"; returns 2N. Throws OptionError saying what is accepted.
int parse_handicap_halves(std::string_view text);
// Canonical handicap text of 2N: "0", "2", "-3", "0.5", "-1.5".
std::string format_handicap(int halves);

// The rules named by validated options.
Rules rules_from_options(const OptionValues& options);

class PhutballGame : public Game {
 public:
  explicit PhutballGame(OptionValues options);

  const GameInfo& info() const override;
  const OptionValues& options() const override { return options_; }
  const Rules& rules() const { return rules_; }
  int num_seats() const override { return 2; }
  std::string seat_label(int seat) const override { return seat == kOhs ? "O" : "X"; }
  std::string seat_name(int seat) const override { return seat == kOhs ? "Ohs" : "Eks"; }
  RecordStyle record_style() const override { return RecordStyle::kNumbered; }
  // Only handicaps 0 and +0.5 are rated (specs/phutball.md §2.3: the first move is an advantage).
  bool rated() const override { return rules_.handicap_halves == 0 || rules_.handicap_halves == 1; }
  // Levels 1-5 (phutball_levels.cpp).
  std::vector<BotLevel> bot_ladder() const override;
  std::unique_ptr<State> initial_state() const override;
  // Parses the position string of phutball_notation.h.
  std::unique_ptr<State> parse_state(std::string_view text) const override;
  // A state at `pos` after `ply` plies, with the keys of the earlier positions (used only when
  // the repetition option is on).
  std::unique_ptr<State> make_state(const Position& pos, int ply = 0,
                                    std::vector<std::uint64_t> earlier = {}) const;

 private:
  OptionValues options_;
  Rules rules_;
};

// Why a finished game is over.
enum class EndReason : std::uint8_t { kNone, kBall, kThreefold, kPlyCap, kNoMoves };

class PhutballState : public State {
 public:
  PhutballState(std::shared_ptr<const PhutballGame> game, const Position& pos, int ply,
                std::vector<std::uint64_t> earlier);

  const std::shared_ptr<const Game>& game() const override { return game_base_; }
  std::unique_ptr<State> clone() const override;
  int current_seat() const override {
    return outcome_ == Outcome::kNone ? pos_.to_move : kTerminalSeat;
  }
  // Plies played in the game (a parsed position keeps its ply count); the `#n` check wants
  // ply() + 1.
  int ply() const override { return ply_; }
  std::vector<Move> legal_moves() const override;
  std::vector<Move> distinct_moves() const override;
  void apply(const Move& move) override;
  std::vector<double> returns() const override;
  std::string result_text() const override;
  std::string move_to_string(const Move& move) const override;
  // Accepts a placement "H11" or a path "H10-H13-L10" (case-insensitive), an optional trailing
  // "#n" ply check (n must be ply() + 1), a final "*" for the one hop off the board over the
  // mover's target line (§8.3), and with lenient_path a path that omits the ball's point.
  // Throws RuleError with the reason of §8.4: bad coordinate, point occupied, not a straight
  // line, empty path element, hop too short, hop passes an empty point, landing point not empty,
  // lands off the side, hop starts off the board, path does not start at the ball, own goal,
  // repetition, wrong move number, game over. (Whose turn it is belongs to the server.)
  Move parse_move(std::string_view text) const override;
  StepChoices next_steps(const std::vector<std::string>& prefix) const override;
  Move move_from_steps(const std::vector<std::string>& steps) const override;
  std::vector<std::string> steps_of(const Move& move) const override;
  // The board of §9.1 (seat names are not part of it).
  std::string to_text(const std::vector<std::string>& seat_names = {}) const override;
  std::string serialize() const override;
  // Zobrist key of men, ball and side to move (not the history or the ply count).
  std::uint64_t hash() const override { return pos_.key; }
  // Same options, position, ply count and (with a repetition option) history.
  bool equals(const State& other) const override;

  // AI hooks (core/state.h), in phutball_ai.cpp: the exact win-in-one search (§13.2; no node
  // budget, so "none" is a proof: a tool, bots call the bounded one), an evaluation from the ball's progress and the mover's best
  // jump, winning and advancing jumps then placements near the ball as move order, and a
  // playout policy that takes wins and places near the ball.
  std::optional<Move> find_winning_move() const override;
  // The same search over jump states, stopped after budget.limit states (or budget.stop()).
  std::optional<Move> bounded_winning_move(WorkBudget& budget) const override;
  // Placements, then one move per jump state in DFS order until budget.limit positions
  // (placements count one each) or budget.stop(); never empty for a non-terminal state.
  std::vector<Move> bounded_distinct_moves(WorkBudget& budget) const override;
  std::vector<double> evaluate() const override;
  void order_moves(std::vector<Move>& moves) const override;
  Move playout_move(Rng& rng) const override;

  const Position& position() const { return pos_; }
  const Rules& rules() const { return game_->rules(); }
  Outcome outcome() const { return outcome_; }
  EndReason end_reason() const { return end_reason_; }
  // Keys of every position so far, the current one last (empty without a repetition option).
  const std::vector<std::uint64_t>& history() const { return history_; }

  // Whether a jump move by the side to move may end with the ball on `ball`, `key` being the
  // position key after its hops before the side switches (own goal and superko rules).
  bool ending_ok(int ball, std::uint64_t key) const;
  // Whether a man may be placed on `cell` now (empty on-board point, superko).
  bool placement_ok(int cell) const;

 private:
  // Sets outcome_ and end_reason_ from the position (§6).
  void settle();
  bool has_any_move() const;
  bool recreates(std::uint64_t key_after) const;
  // Validates text input; throw RuleError with the §8.4 reasons.
  Move check_placement(int cell) const;
  Move check_path(std::vector<int> cells, bool star) const;

  std::shared_ptr<const PhutballGame> game_;
  std::shared_ptr<const Game> game_base_;
  Position pos_;
  int ply_ = 0;
  std::vector<std::uint64_t> history_;
  Outcome outcome_ = Outcome::kNone;
  EndReason end_reason_ = EndReason::kNone;
};

// The board page of §9.2 for `state` (a Phutball state). Throws std::invalid_argument for a
// state of another game.
std::string board_page(const State& state, const PageInfo& info);

}  // namespace plateau::phutball
