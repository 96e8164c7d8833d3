#pragma once
// Bots: something that picks a move for the seat to move (DESIGN.md §4). Only `random` exists
// so far; search-based levels come with the AI issue and register in make_bot().
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/state.h"

namespace plateau {

class Bot {
 public:
  virtual ~Bot() = default;
  // The bot's name as given to make_bot ("random").
  virtual std::string name() const = 0;
  // A move for the seat to move; `state` must not be terminal. Deterministic for a given seed
  // and sequence of calls.
  virtual Move choose_move(const State& state) = 0;
};

// Creates a bot by name. Accepted: "random" (uniform over legal_moves()). Throws OptionError
// listing the accepted names for anything else.
std::unique_ptr<Bot> make_bot(std::string_view name, std::uint64_t seed);

// True if `name` is a bot make_bot accepts.
bool is_bot_name(std::string_view name);

}  // namespace plateau
