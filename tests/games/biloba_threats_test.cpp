// threatened_count_fast (biloba_threats.h) equals the classic player's threatened_count
// (biloba_classic.h) for every colour of every position of random 2-, 3- and 4-player games.
#include <gtest/gtest.h>

#include "core/registry.h"
#include "games/biloba/biloba_classic.h"
#include "games/biloba/biloba_game.h"
#include "games/biloba/biloba_threats.h"
#include "games/register.h"

namespace plateau::biloba {
namespace {

// Positions checked, and how many of them had a threatened pawn (so the test means something).
std::pair<int, int> check(const std::string& spec, int games, std::uint64_t seed) {
  register_builtin_games();
  auto game = make_game(spec);
  Rng rng(seed);
  int positions = 0, with_threats = 0;
  for (int g = 0; g < games; ++g) {
    auto state = game->initial_state();
    for (int ply = 0; ply < 400 && !state->is_terminal(); ++ply) {
      const Position& pos = static_cast<const BilobaState&>(*state).position();
      ++positions;
      bool any = false;
      for (int c = 0; c < pos.players; ++c) {
        const int want = threatened_count(pos, c);
        EXPECT_EQ(threatened_count_fast(pos, c), want) << state->serialize() << " colour " << c;
        any = any || want > 0;
      }
      with_threats += any ? 1 : 0;
      const auto moves = state->legal_moves();
      state->apply(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
  }
  return {positions, with_threats};
}

TEST(BilobaThreats, FastCountEqualsTheClassicCount) {
  for (const auto& [spec, seed] : {std::pair<std::string, int>{"biloba", 7},
                                   {"biloba(players=3)", 8},
                                   {"biloba(players=4)", 9}}) {
    const auto [positions, with_threats] = check(spec, 8, seed);
    EXPECT_GT(positions, 1000) << spec;
    EXPECT_GT(with_threats, positions / 4) << spec;
  }
}

TEST(BilobaThreats, DecorativeSquareCountsAsNoPawn) {
  // The orange pawn on b7 has a blue pawn on c6 and, on the other side, the decorative cell a8,
  // which holds no pawn and has the blue pawn on a7 next to it: threatened (the quirk of TV-14
  // on the threat side), although no pawn can ever go to a8.
  register_builtin_games();
  auto game = make_game("biloba");
  const auto state = game->parse_state(
      "##.....##/#.......#/BO......./..B....../....*..../........./........./#.......#/"
      "##.....## O 2");
  const Position& pos = static_cast<const BilobaState&>(*state).position();
  EXPECT_EQ(threatened_count(pos, 0), 1);
  EXPECT_EQ(threatened_count_fast(pos, 0), 1);
  EXPECT_EQ(threatened_count(pos, 1), 0);
  EXPECT_EQ(threatened_count_fast(pos, 1), 0);
}

}  // namespace
}  // namespace plateau::biloba
