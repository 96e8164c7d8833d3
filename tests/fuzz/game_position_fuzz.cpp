// libFuzzer targets `<game>_position` (built once per game with PLATEAU_FUZZ_GAME set): a
// game's position string (Game::parse_state: the Position tag of records and the positions
// stored with tables; Biloba's is specs/biloba.md §7.5).
//
// Input lines: 0 options ("" = defaults), 1 the position string.
// Invariants: a parsed position serialises to a string that parses to an equal state with the
// same string and hash; it prints, reports its seat and returns consistently, and answers the
// first step query. Only RuleError may be thrown (OptionError for the options).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/error.h"
#include "core/registry.h"
#include "fuzz_check.h"
#include "games/register.h"

#ifndef PLATEAU_FUZZ_GAME
#error "define PLATEAU_FUZZ_GAME to the game's registry name"
#endif

namespace {
// Phutball lists every jump path in legal_moves(), huge in dense positions: not called there.
constexpr bool kEnumerate = std::string_view(PLATEAU_FUZZ_GAME) != "phutball";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  plateau::register_builtin_games();
  const auto lines = plateau::fuzz::lines_of(plateau::fuzz::as_text(data, size));
  std::shared_ptr<const plateau::Game> game;
  try {
    game = plateau::make_game(PLATEAU_FUZZ_GAME, plateau::fuzz::line(lines, 0));
  } catch (const plateau::OptionError&) {
    return 0;
  }
  const std::string text(plateau::fuzz::line(lines, 1));
  std::unique_ptr<plateau::State> s1;
  try {
    s1 = game->parse_state(text);
  } catch (const plateau::RuleError&) {
    return 0;
  }
  const std::string t1 = s1->serialize();
  std::unique_ptr<plateau::State> s2;
  try {
    s2 = game->parse_state(t1);
  } catch (const plateau::RuleError& e) {
    FUZZ_CHECK(false, "'" + text + "' serialises to '" + t1 + "', which fails: " + e.what());
  }
  FUZZ_CHECK(s2->equals(*s1), "'" + text + "' -> '" + t1 + "' parses to another state");
  FUZZ_CHECK(s2->serialize() == t1, "'" + t1 + "' serialises as '" + s2->serialize() + "'");
  FUZZ_CHECK(s2->hash() == s1->hash(), "'" + t1 + "' parses to another hash");
  const std::string board = s1->to_text();
  FUZZ_CHECK(!board.empty() && board.back() == '\n', "'" + t1 + "' prints no board");
  const int seat = s1->current_seat();
  FUZZ_CHECK(seat == plateau::kTerminalSeat || (seat >= 0 && seat < game->num_seats()),
             "'" + t1 + "': seat " + std::to_string(seat));
  FUZZ_CHECK(s1->returns().size() == static_cast<std::size_t>(game->num_seats()),
             "'" + t1 + "': returns() size");
  if (s1->is_terminal()) return 0;
  try {
    (void)s1->next_steps({});
  } catch (const plateau::RuleError&) {
  }
  if (kEnumerate) {
    const auto moves = s1->legal_moves();
    FUZZ_CHECK(!moves.empty(), "'" + t1 + "' is not over but has no legal move");
    for (std::size_t i = 0; i < moves.size() && i < 64; ++i) {
      const std::string mt = s1->move_to_string(moves[i]);
      try {
        FUZZ_CHECK(s1->parse_move(mt) == moves[i], "'" + t1 + "': '" + mt + "' parses elsewhere");
      } catch (const plateau::RuleError& e) {
        FUZZ_CHECK(false, "'" + t1 + "': legal move '" + mt + "' rejected: " + e.what());
      }
    }
  }
  return 0;
}
