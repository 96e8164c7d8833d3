#pragma once
// The registry of games: create a game from a spec string such as `phutball(handicap=2)`.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"

namespace plateau {

using GameFactory = std::function<std::shared_ptr<const Game>(const OptionValues&)>;

// Registers a game. Called once per game from register_builtin_games() (games/register.cpp).
// Throws std::logic_error if the name is taken.
void register_game(GameInfo info, GameFactory factory);

// Infos of every registered game, sorted by name.
std::vector<const GameInfo*> registered_games();

// The game `info` names, with `seats` seats and every other option at its default: through its
// seat_count_option when it has one (Biloba: players=3), else the default game (whose seat count
// is min_seats == max_seats). Throws OptionError for a seat count the game does not take.
std::shared_ptr<const Game> make_game_with_seats(const GameInfo& info, int seats);

// Creates a game from `spec`: "name" or "name(opt=value,...,preset)", case-insensitive, spaces
// allowed around items. Throws OptionError listing the registered games for an unknown name, or
// naming the bad option and what it accepts.
std::shared_ptr<const Game> make_game(std::string_view spec);

// Same with the name and the options text given apart (as a record's Game and Options tags).
std::shared_ptr<const Game> make_game(std::string_view name, std::string_view options);

}  // namespace plateau
