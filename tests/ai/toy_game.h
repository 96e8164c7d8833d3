#pragma once
// A tiny game for search tests whose values are known by hand: "take-away" for 2-4 seats. A
// pile of stones; seats take 1, 2 or 3 in turn; whoever takes the last stone wins (return 1,
// everyone else 0). With 2 seats the mover loses exactly when the pile is a multiple of 4.
#include <memory>
#include <stdexcept>
#include <string>

#include "core/game.h"

namespace plateau::testing {

class TakeAwayGame : public Game {
 public:
  TakeAwayGame(int seats, int pile) : seats_(seats), pile_(pile) {
    info_.name = "takeaway";
    info_.title = "Take-away";
    info_.min_seats = 2;
    info_.max_seats = 4;
  }
  const GameInfo& info() const override { return info_; }
  const OptionValues& options() const override { return options_; }
  int num_seats() const override { return seats_; }
  std::string seat_label(int seat) const override { return std::string(1, char('A' + seat)); }
  std::string seat_name(int seat) const override { return seat_label(seat); }
  RecordStyle record_style() const override { return RecordStyle::kNumbered; }
  std::unique_ptr<State> initial_state() const override;
  std::unique_ptr<State> parse_state(std::string_view) const override {
    throw std::logic_error("not needed");
  }
  int pile() const { return pile_; }

 private:
  int seats_;
  int pile_;
  GameInfo info_;
  OptionValues options_;
};

class TakeAwayState : public State {
 public:
  TakeAwayState(std::shared_ptr<const Game> game, int pile, int seat)
      : game_(std::move(game)), pile_(pile), seat_(seat) {}
  const std::shared_ptr<const Game>& game() const override { return game_; }
  std::unique_ptr<State> clone() const override { return std::make_unique<TakeAwayState>(*this); }
  int current_seat() const override { return pile_ == 0 ? kTerminalSeat : seat_; }
  int ply() const override { return ply_; }
  std::vector<Move> legal_moves() const override {
    std::vector<Move> m;
    for (int k = 1; k <= 3 && k <= pile_; ++k) m.push_back(Move{static_cast<Move::Code>(k)});
    return m;
  }
  void apply(const Move& move) override {
    pile_ -= move[0];
    last_ = seat_;
    seat_ = (seat_ + 1) % game_->num_seats();
    ++ply_;
  }
  std::vector<double> returns() const override {
    std::vector<double> r(static_cast<std::size_t>(game_->num_seats()), 0.0);
    if (pile_ == 0) r[static_cast<std::size_t>(last_)] = 1.0;
    return r;
  }
  std::string result_text() const override { return ""; }
  std::string move_to_string(const Move& move) const override { return std::to_string(move[0]); }
  Move parse_move(std::string_view text) const override {
    return Move{static_cast<Move::Code>(std::stoi(std::string(text)))};
  }
  StepChoices next_steps(const std::vector<std::string>&) const override { return {}; }
  Move move_from_steps(const std::vector<std::string>& steps) const override {
    return parse_move(steps.at(0));
  }
  std::vector<std::string> steps_of(const Move& move) const override {
    return {move_to_string(move)};
  }
  std::string to_text(const std::vector<std::string>& = {}) const override {
    return std::to_string(pile_) + "\n";
  }
  std::string serialize() const override {
    return std::to_string(pile_) + " " + std::to_string(seat_) + " " + std::to_string(last_);
  }
  std::uint64_t hash() const override {
    std::uint64_t s = static_cast<std::uint64_t>(pile_ * 16 + seat_ * 4 + last_ + 1);
    return splitmix64(s);
  }
  bool equals(const State& other) const override {
    auto* o = dynamic_cast<const TakeAwayState*>(&other);
    return o && o->pile_ == pile_ && o->seat_ == seat_ && o->last_ == last_;
  }
  int pile() const { return pile_; }

 private:
  std::shared_ptr<const Game> game_;
  int pile_;
  int seat_;
  int last_ = 0;
  int ply_ = 0;
};

inline std::unique_ptr<State> TakeAwayGame::initial_state() const {
  return std::make_unique<TakeAwayState>(shared_from_this(), pile_, 0);
}

inline std::shared_ptr<const TakeAwayGame> take_away(int seats, int pile) {
  return std::make_shared<TakeAwayGame>(seats, pile);
}

}  // namespace plateau::testing
