#pragma once
// A Plateau bot playing one seat of a click-level Biloba game (specs/biloba.md §7.3): at the
// first click of each of its turns it asks the bot for a full turn token on the position the
// turn started from, then feeds the token's minimal click sequence one click at a time. Used
// by CPU seats of the `biloba` client and by server-hosted CPU seats in legacy games, where
// only clicks travel on the wire.
#include <cstdint>
#include <deque>
#include <memory>
#include <string_view>

#include "ai/bot.h"
#include "games/biloba/biloba_clicks.h"
#include "games/biloba/biloba_game.h"

namespace plateau::biloba::net {

// The Biloba game of a legacy (original-protocol) game with `players` seats: ruleset classic,
// no_legal_move = wait (§3.4, required on the original protocol).
std::shared_ptr<const BilobaGame> legacy_game(int players);

class ClickPlayer {
 public:
  // `bot_name` as accepted by make_bot ("random", and the AI branch's levels such as
  // "classic"); throws OptionError for an unknown name. `start` is the position the machine
  // started from.
  ClickPlayer(std::string_view bot_name, std::uint64_t seed, const Position& start);

  // The next square to click for `machine.asked()`, or -1 when that seat has no legal move
  // (the original waits for ever; the caller should end the game). Precondition: the machine
  // is not over.
  int next_click(const ClickMachine& machine);

 private:
  std::unique_ptr<Bot> bot_;
  Position start_;
  std::shared_ptr<const BilobaGame> game_;
  std::deque<int> plan_;
  std::size_t planned_turn_ = static_cast<std::size_t>(-1);  // machine.turns().size() of the plan
  int planned_seat_ = -1;
};

// The position the turn in progress started from (the machine's last completed turn, or
// `start`).
Position turn_start(const ClickMachine& machine, const Position& start);

}  // namespace plateau::biloba::net
