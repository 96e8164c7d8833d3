// libFuzzer target `game_spec`: a game spec as `/open` and `plateau` commands take it,
// "name(option=value,...,preset)" (core/registry.h, core/options.h). make_game either returns a
// game or throws OptionError; the game's canonical spec() recreates a game with the same spec.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/registry.h"
#include "fuzz_check.h"
#include "games/register.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  plateau::register_builtin_games();
  const std::string_view text = plateau::fuzz::as_text(data, size);
  std::shared_ptr<const plateau::Game> game;
  try {
    game = plateau::make_game(text);
  } catch (const plateau::OptionError&) {
    return 0;
  }
  const std::string spec = game->spec();
  try {
    const auto again = plateau::make_game(spec);
    FUZZ_CHECK(again->spec() == spec, "'" + spec + "' recreates '" + again->spec() + "'");
    FUZZ_CHECK(again->num_seats() == game->num_seats(), "'" + spec + "': seats differ");
  } catch (const plateau::OptionError& e) {
    FUZZ_CHECK(false, "canonical spec '" + spec + "' of '" + std::string(text) +
                          "' is rejected: " + e.what());
  }
  return 0;
}
