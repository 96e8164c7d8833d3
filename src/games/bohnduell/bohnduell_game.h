#pragma once
// BohnDuell as a Plateau game (specs/bohnduell.md): the core interface over bohnduell_rules.h.
// Seat 0 (A) always moves first in a game state; who sits there is the table's choice (§2).
#include <memory>

#include "core/game.h"
#include "games/bohnduell/bohnduell_rules.h"

namespace plateau::bohnduell {

// Registry entry: name "bohnduell", the options of §9 with their defaults (ruleset `bsw`).
GameInfo game_info();

// The rules switches named by validated options (throws OptionError for values out of range).
Rules rules_from_options(const OptionValues& options);

class BohnDuellGame : public Game {
 public:
  explicit BohnDuellGame(OptionValues options);

  const GameInfo& info() const override;
  const OptionValues& options() const override { return options_; }
  const Rules& rules() const { return rules_; }
  int num_seats() const override { return 2; }
  std::string seat_label(int seat) const override { return seat == 0 ? "A" : "B"; }
  std::string seat_name(int seat) const override { return seat == 0 ? "A" : "B"; }
  RecordStyle record_style() const override { return RecordStyle::kSeatPrefixed; }
  // Levels 1-5 (bohnduell_levels.cpp).
  std::vector<BotLevel> bot_ladder() const override;
  std::unique_ptr<State> initial_state() const override;
  std::unique_ptr<State> parse_state(std::string_view text) const override;
  // A state holding `pos` (normalised as parse_state does).
  std::unique_ptr<State> make_state(const Position& pos) const;

 private:
  OptionValues options_;
  Rules rules_;
};

class BohnDuellState : public State {
 public:
  BohnDuellState(std::shared_ptr<const BohnDuellGame> game, const Position& pos);

  const std::shared_ptr<const Game>& game() const override { return game_base_; }
  std::unique_ptr<State> clone() const override;
  int current_seat() const override { return pos_.over ? kTerminalSeat : pos_.to_move; }
  int ply() const override { return ply_; }
  std::vector<Move> legal_moves() const override;
  void apply(const Move& move) override;
  std::vector<double> returns() const override;
  std::string result_text() const override;
  std::string move_to_string(const Move& move) const override;
  Move parse_move(std::string_view text) const override;
  StepChoices next_steps(const std::vector<std::string>& prefix) const override;
  Move move_from_steps(const std::vector<std::string>& steps) const override;
  std::vector<std::string> steps_of(const Move& move) const override;
  std::string to_text(const std::vector<std::string>& seat_names = {}) const override;
  std::string serialize() const override;
  std::uint64_t hash() const override;
  bool equals(const State& other) const override;

  // AI hooks (core/state.h). bohnduell_eval.cpp: the store margin plus the worth of balls in
  // play as evaluation, captures first as move order and playout bias. bohnduell_exact.cpp:
  // exact move values (the final store margin) from a solved table (bohnduell_solver.h) or by
  // exact search.
  std::vector<double> evaluate() const override;
  Move playout_move(Rng& rng) const override;
  void order_moves(std::vector<Move>& moves) const override;
  std::optional<std::vector<int>> exact_move_values(
      std::uint64_t node_budget, const std::function<bool()>& stop) const override;

  const Position& position() const { return pos_; }
  const Rules& rules() const { return game_->rules(); }

 private:
  std::shared_ptr<const BohnDuellGame> game_;
  std::shared_ptr<const Game> game_base_;
  Position pos_;
  int ply_ = 0;
};

}  // namespace plateau::bohnduell
