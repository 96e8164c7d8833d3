#include "compat/biloba/click_player.h"

#include "core/registry.h"
#include "games/biloba/biloba_board.h"
#include "games/register.h"

namespace plateau::biloba::net {

std::shared_ptr<const BilobaGame> legacy_game(int players) {
  register_builtin_games();
  auto game = std::dynamic_pointer_cast<const BilobaGame>(make_game(
      "biloba(players=" + std::to_string(players) + ",no_legal_move=wait,no_progress=0)"));
  return game;
}

Position turn_start(const ClickMachine& machine, const Position& start) {
  if (machine.turns().empty()) return start;
  return machine.turns().back().after;
}

namespace {

// The game's own players ("classic") are found in the registry: register before asking for one
// (bot_ is built before game_, which would register too late).
std::unique_ptr<Bot> make_registered_bot(std::string_view bot_name, std::uint64_t seed) {
  register_builtin_games();
  return make_bot(bot_name, seed);
}

}  // namespace

ClickPlayer::ClickPlayer(std::string_view bot_name, std::uint64_t seed, const Position& start)
    : bot_(make_registered_bot(bot_name, seed)), start_(start), game_(legacy_game(start.players)) {}

int ClickPlayer::next_click(const ClickMachine& machine) {
  const int seat = machine.asked();
  if (seat < 0) return -1;
  // A new turn, or the plan ran out (a click of ours was not the one planned): plan again from
  // the turn start. Replanning inside a turn is only possible from its start, so a turn whose
  // clicks went astray (never ours) falls back to the remaining planned clicks.
  if (planned_turn_ != machine.turns().size() || planned_seat_ != seat || plan_.empty()) {
    plan_.clear();
    planned_turn_ = machine.turns().size();
    planned_seat_ = seat;
    auto state = game_->make_state(turn_start(machine, start_));
    if (state->current_seat() != seat) return -1;  // stuck (wait) or over: nothing to play
    const Move move = bot_->choose_move(*state);
    for (const std::string& step : state->steps_of(move)) {
      if (auto sq = parse_square(step)) plan_.push_back(*sq);
    }
    if (plan_.empty()) return -1;
  }
  const int sq = plan_.front();
  plan_.pop_front();
  return sq;
}

}  // namespace plateau::biloba::net
