#pragma once
// What `GET /api/games` serves (docs/PROTOCOL.md, "Games"): every registered game as it
// describes itself (DESIGN.md §1) — names, seats and their labels per seat count, the option
// schema with types, ranges, choices and defaults, presets, the seat-count and seat-order
// options, the bot ladder per seat count and the game's own players — so that clients build
// their game lists, forms and seat labels without naming a game.
#include <nlohmann/json.hpp>

#include "core/game.h"

namespace plateau {

// One game's description (an object; fields in docs/PROTOCOL.md). Creates the game once per
// seat count to ask its labels and its ladder; never throws for a registered game.
nlohmann::json game_json(const GameInfo& info);

// Every registered game, in the registry's order (by name).
nlohmann::json games_json();

}  // namespace plateau
