// libFuzzer targets `<game>_notation` (built once per game with PLATEAU_FUZZ_GAME set): a
// move's text (State::parse_move, Phutball's `#n`, `*` and long jump paths included) and the
// step input (next_steps, move_from_steps) of one game, in a position the input chooses.
//
// Input lines: 0 options ("" = defaults, as the Options tag of a record), 1 a position string
// ("" = the start), 2 a move text, 3.. step lists (whitespace-separated steps).
// Invariants: a move that parses prints back to a canonical text that parses to the same move;
// its steps enter the same move, every step of it is offered by next_steps; the position after
// it serialises to a string that parses to an equal state. Only RuleError may be thrown (and
// OptionError for the options).
#include <algorithm>
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

using plateau::Move;
using plateau::State;

// Phutball lists every jump path in legal_moves() (huge in dense positions): it is checked
// through its step input only.
constexpr bool kEnumerate = std::string_view(PLATEAU_FUZZ_GAME) != "phutball";

std::string join_steps(const std::vector<std::string>& steps) {
  std::string out;
  for (const auto& s : steps) out += (out.empty() ? "" : " ") + s;
  return out;
}

// Every invariant of a move `m` that parse_move or move_from_steps accepted in `s`.
void check_move(const State& s, const Move& m, const std::string& how) {
  const std::string text = s.move_to_string(m);
  FUZZ_CHECK(s.parse_move(text) == m, how + ": canonical text '" + text + "' parses elsewhere");
  const std::vector<std::string> steps = s.steps_of(m);
  FUZZ_CHECK(s.move_from_steps(steps) == m, how + ": steps '" + join_steps(steps) +
                                                "' of '" + text + "' enter another move");
  std::vector<std::string> prefix;
  for (const std::string& step : steps) {
    const plateau::StepChoices choices = s.next_steps(prefix);
    FUZZ_CHECK(std::find(choices.next.begin(), choices.next.end(), step) != choices.next.end(),
               how + ": step '" + step + "' of '" + text + "' not offered after '" +
                   join_steps(prefix) + "'");
    prefix.push_back(step);
  }
  FUZZ_CHECK(s.next_steps(prefix).complete, how + ": steps of '" + text + "' not complete");
  if (kEnumerate) {
    const std::vector<Move> legal = s.legal_moves();
    FUZZ_CHECK(std::find(legal.begin(), legal.end(), m) != legal.end(),
               how + ": '" + text + "' is not in legal_moves()");
  }
  auto after = s.clone();
  after->apply(m);
  const std::string pos = after->serialize();
  auto again = s.game()->parse_state(pos);
  FUZZ_CHECK(again->equals(*after), how + ": position after '" + text + "' (" + pos +
                                        ") does not parse back equal");
}

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
  std::unique_ptr<State> state;
  try {
    const std::string_view pos = plateau::fuzz::line(lines, 1);
    state = pos.empty() ? game->initial_state() : game->parse_state(pos);
  } catch (const plateau::RuleError&) {
    return 0;
  }
  const std::string move_text(plateau::fuzz::line(lines, 2));
  try {
    const Move m = state->parse_move(move_text);
    FUZZ_CHECK(!state->is_terminal(), "parse_move accepted '" + move_text + "' after the end");
    check_move(*state, m, "parse_move('" + move_text + "')");
  } catch (const plateau::RuleError&) {
  }
  for (std::size_t i = 3; i < lines.size(); ++i) {
    const std::vector<std::string> steps = plateau::fuzz::words(lines[i]);
    try {
      (void)state->next_steps(steps);
    } catch (const plateau::RuleError&) {
    }
    try {
      const Move m = state->move_from_steps(steps);
      check_move(*state, m, "move_from_steps('" + join_steps(steps) + "')");
    } catch (const plateau::RuleError&) {
    }
  }
  return 0;
}
