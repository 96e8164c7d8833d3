// Progress in Biloba (issue 14): the game's history of positions as seen by the search, the
// search scoring a repeated position as no progress, and the evaluation's endgame terms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "ai/alphabeta.h"
#include "ai/bot.h"
#include "core/random.h"
#include "core/registry.h"
#include "games/biloba/biloba_eval.h"
#include "games/biloba/biloba_game.h"
#include "games/biloba/biloba_notation.h"
#include "games/register.h"

namespace plateau::biloba {
namespace {

std::unique_ptr<State> state(const std::string& text, const std::string& spec = "biloba") {
  register_builtin_games();
  return make_game(spec)->parse_state(text);
}

std::unique_ptr<State> start(const std::string& spec = "biloba") {
  register_builtin_games();
  return make_game(spec)->initial_state();
}

const Position& pos_of(const State& s) { return dynamic_cast<const BilobaState&>(s).position(); }

bool contains(const std::vector<std::uint64_t>& keys, std::uint64_t k) {
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}

TEST(BilobaHistory, KeptKeysEqualKeysComputedFromTheBoard) {
  // apply() updates the repetition key for a plain turn and recomputes it after a capture; a
  // parsed position computes it from its 81 cells. Every position of random 2- and 4-player
  // games (captures, refills, eliminations, passes included) must agree, and so must hash().
  for (const char* spec : {"biloba", "biloba(players=4)", "biloba(players=3,turn_cap=400)"}) {
    auto s = start(spec);
    Rng rng(7);
    int plies = 0;
    while (!s->is_terminal() && plies < 400) {
      const std::vector<Move> moves = s->legal_moves();
      s->apply(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
      ++plies;
      auto fresh = s->game()->parse_state(s->serialize());
      ASSERT_EQ(s->repetition_key(), fresh->repetition_key()) << spec << " ply " << plies;
      ASSERT_EQ(s->hash(), fresh->hash()) << spec << " ply " << plies;
    }
    EXPECT_GT(plies, 100) << spec;
  }
}

TEST(BilobaHistory, KeepsPositionsUntilAPawnIsRemoved) {
  auto s = start();
  EXPECT_TRUE(s->earlier_positions().empty());
  const std::uint64_t k0 = s->repetition_key();
  s->apply_text("d7-d5");
  const std::uint64_t k1 = s->repetition_key();
  s->apply_text("c4-c5");
  EXPECT_EQ(s->earlier_positions(), (std::vector<std::uint64_t>{k1, k0}));
  // A clone shares the list; moves applied to the original later do not reach the clone.
  auto clone = s->clone();
  s->apply_text("b6-a5");
  EXPECT_EQ(clone->earlier_positions().size(), 2u);
  EXPECT_EQ(s->earlier_positions().size(), 3u);
  // A parsed position knows no history.
  EXPECT_TRUE(state(s->serialize())->earlier_positions().empty());
  EXPECT_EQ(state(s->serialize())->repetition_key(), s->repetition_key());
}

int pawns_on_board(const State& s) {
  int pawns = 0;
  for (int c = 0; c < pos_of(s).players; ++c) pawns += pos_of(s).count[c];
  return pawns;
}

// Applies `m` to `s` and to `want`, the list as one key per turn would hold it (newest first):
// emptied by a turn that removes a pawn, cut to its newest 512 keys when it holds 1,024.
void apply_and_track(State& s, const Move& m, std::vector<std::uint64_t>& want) {
  const int pawns = pawns_on_board(s);
  const std::uint64_t before = s.repetition_key();
  s.apply(m);
  if (pawns_on_board(s) < pawns) {
    want.clear();
    return;
  }
  if (want.size() >= 1024) want.resize(512);
  want.insert(want.begin(), before);
}

TEST(BilobaHistory, LongGamesKeepTheNewestKeysAndClonesTheirOwn) {
  // The state keeps its newest keys inline and the older ones in shared chunks; at every ply of
  // random games, and of a shuffle of 2,800 turns, it and clones taken along the way must give
  // the list of apply_and_track.
  for (const char* spec : {"biloba", "biloba(players=4)"}) {
    auto s = start(spec);
    Rng rng(11);
    std::vector<std::uint64_t> want;
    for (int ply = 0; ply < 1000 && !s->is_terminal(); ++ply) {
      const std::vector<Move> moves = s->legal_moves();
      apply_and_track(*s, moves[rng.below(static_cast<std::uint32_t>(moves.size()))], want);
      ASSERT_EQ(s->earlier_positions(), want) << spec << " ply " << ply;
    }
  }
  auto s = state(
      "##.....##/#.......#/O......../O.O....../....*..../..B....B./........./#.B...B.#/##.....## O "
      "2",
      "biloba(no_progress=0)");
  std::vector<std::uint64_t> want;
  std::vector<std::pair<std::unique_ptr<State>, std::vector<std::uint64_t>>> clones;
  for (int ply = 0; ply < 2800; ++ply) {
    static const char* const kCycle[] = {"a6-b6", "h4-h3", "b6-a6", "h3-h4"};
    apply_and_track(*s, s->parse_move(kCycle[ply % 4]), want);
    ASSERT_EQ(s->earlier_positions(), want) << "ply " << ply;
    if (ply % 97 == 0) clones.emplace_back(s->clone(), want);
  }
  // 1,024 keys after 1,024 turns, 513 after the next, then 512 more per cut: 513 + 1,775 % 512.
  EXPECT_EQ(want.size(), 752u);
  for (const auto& [c, keys] : clones) EXPECT_EQ(c->earlier_positions(), keys);
}

TEST(BilobaHistory, AStepAndItsReturnRepeatAPosition) {
  // Orange a6-b6 and back, blue h4-h3 and back: after four turns the position recurs.
  auto s = state(
      "##.....##/#.......#/O......../O.O....../....*..../..B....B./........./#.B...B.#/##.....## O "
      "2");
  const std::uint64_t k0 = s->repetition_key();
  for (const char* t : {"a6-b6", "h4-h3", "b6-a6", "h3-h4"}) s->apply_text(t);
  EXPECT_EQ(s->repetition_key(), k0);
  EXPECT_TRUE(contains(s->earlier_positions(), k0));
}

TEST(BilobaHistory, ACaptureForgetsTheHistory) {
  // After two quiet turns orange c4-d4 sandwiches blue d3 against orange d2 (§4.1).
  auto s = state(
      "##.....##/#.......#/OO......./........./....*..../..O....../...B..BB./#..O....#/##.....## O "
      "2");
  s->apply_text("a7-a6");
  s->apply_text("h3-i3");
  EXPECT_EQ(s->earlier_positions().size(), 2u);
  int captures = 0;
  for (const Move& m : s->distinct_moves()) {
    auto c = s->clone();
    c->apply(m);
    if (pos_of(*c).count[1] < pos_of(*s).count[1]) {
      ++captures;
      EXPECT_TRUE(c->earlier_positions().empty()) << s->move_to_string(m);
    } else {
      EXPECT_EQ(c->earlier_positions().size(), 3u) << s->move_to_string(m);
    }
  }
  EXPECT_GE(captures, 1);
}

TEST(BilobaHistory, NoProgressIsADrawAmongTheSeatsOnTheBoard) {
  auto s = start("biloba(players=3)");
  EXPECT_EQ(s->no_progress_values(), (std::vector<double>{1.0 / 3, 1.0 / 3, 1.0 / 3}));
}

TEST(BilobaEval, PrefersTheWeakSidesPawnFlanked) {
  // Orange 5 pawns, blue 3. In `flanked` blue e4 has orange d4 on its west and f4 empty; in
  // `apart` orange's pawn stands on a4 instead.
  auto flanked = state(
      "##.....##/#.......#/OO......./O......../....*..../...OB..../......B../#.....B.#/##.....## O "
      "2");
  auto apart = state(
      "##.....##/#.......#/OO......./O......../....*..../O...B..../......B../#.....B.#/##.....## O "
      "2");
  const auto tf = seat_terms(pos_of(*flanked));
  const auto ta = seat_terms(pos_of(*apart));
  EXPECT_EQ(tf[0].pawns, 4);
  EXPECT_GE(tf[0].flanks, 1);
  EXPECT_EQ(ta[0].flanks, 0);
  EXPECT_GT(tf[0].closeness, ta[0].closeness);
  EXPECT_GT(flanked->evaluate()[0], apart->evaluate()[0]);
}

TEST(BilobaEval, QuietTurnsPullTheValuesTowardsTheDraw) {
  auto s = state(
      "##.....##/#.......#/OOO....../O.O....../....*..../.......B./........./#.B...B.#/##.....## O "
      "2");
  const Position& p = pos_of(*s);
  const std::vector<double> free = evaluate_position(p, 0.0, {});
  const std::vector<double> draw = {0.5, 0.5};
  const std::vector<double> half = evaluate_position(p, 0.5, draw);
  EXPECT_DOUBLE_EQ(half[0], 0.75 * free[0] + 0.25 * 0.5);
  EXPECT_EQ(evaluate_position(p, 1.0, draw), draw);
  // The state counts its quiet turns from its history and evaluates with them.
  EXPECT_EQ(dynamic_cast<const BilobaState&>(*s).quiet_turns(), 0);
  EXPECT_EQ(s->evaluate(), free);
  for (const char* t : {"a6-b6", "h4-h3", "b6-a6", "h3-h4"}) s->apply_text(t);
  EXPECT_EQ(dynamic_cast<const BilobaState&>(*s).quiet_turns(), 4);
  const double w = 4.0 / kDefaultNoProgress;
  EXPECT_DOUBLE_EQ(s->evaluate()[0], (1 - w * w) * free[0] + w * w * 0.5);
}

TEST(BilobaEval, ASeatAtTwoPawnsThatCannotEatSoonIsDoomed) {
  // Blue has 2 pawns far from every orange pawn: §6.2 removes them at blue's next turn.
  auto s = state(
      "##.....##/#.......#/OOO....../........./....*..../........./........./#.....BB#/##.....## O "
      "2");
  const auto t = seat_terms(pos_of(*s));
  EXPECT_TRUE(t[1].doomed);
  EXPECT_FALSE(t[0].doomed);
  EXPECT_DOUBLE_EQ(t[1].material, 0.0);
  EXPECT_GT(s->evaluate()[0], 0.8);
}

// The best move of a short alpha-beta search (iterations of at most `depth` plies).
std::string best_move(const State& s, int depth) {
  ai::AlphaBetaOptions o;
  o.max_depth = depth;
  o.tt_entries = 1 << 12;
  ai::AlphaBeta search(o);
  ai::SearchLimits limits;
  limits.budget = 20'000;
  return s.move_to_string(search.search(s, limits).best);
}

TEST(BilobaSearch, TheSideAheadAvoidsRepeatingAPosition) {
  // Orange 5 pawns against 3, far apart and none next to another (so no jumps): no capture is
  // in reach of a 2-ply search.
  const std::string s4 =
      "##.....##/#...O...#/O.O...O../........./O...*..../.......B./........./#.B...B.#/##.....## O "
      "2";
  const std::string x = best_move(*state(s4), 2);
  ASSERT_EQ(x.size(), 5u);  // a step, so it can be stepped back
  const std::string back = x.substr(3, 2) + "-" + x.substr(0, 2);
  // Build the same position with a history in which the position after x already happened:
  // from it, blue h4-h3, orange steps back, blue h3-h4.
  auto y = state(s4);
  y->apply_text(x);
  auto s = state(y->serialize());
  for (const std::string& t : {std::string("h4-h3"), back, std::string("h3-h4")}) {
    s->apply_text(t);
  }
  ASSERT_EQ(s->serialize(), state(s4)->serialize());
  ASSERT_EQ(s->earlier_positions().size(), 3u);
  const std::string avoid = best_move(*s, 2);
  EXPECT_NE(avoid, x);
  auto after = s->clone();
  after->apply_text(avoid);
  EXPECT_FALSE(contains(s->earlier_positions(), after->repetition_key()));
}

// Plays `plies` turns of level `level` against itself from `s`, each bot seeing the state with
// its history; returns the tokens.
std::vector<std::string> play(State& s, const std::string& level, int plies, std::uint64_t seed) {
  auto a = make_bot(level, seed);
  auto b = make_bot(level, seed + 1);
  std::vector<std::string> tokens;
  for (int i = 0; i < plies && !s.is_terminal(); ++i) {
    Bot& bot = s.current_seat() == 0 ? *a : *b;
    const Move m = bot.choose_move(s);
    tokens.push_back(s.move_to_string(m));
    s.apply(m);
  }
  return tokens;
}

TEST(BilobaLevels, SameSeedSameGame) {
  auto s1 = start("biloba(players=3)");
  auto s2 = start("biloba(players=3)");
  EXPECT_EQ(play(*s1, "2", 30, 7), play(*s2, "2", 30, 7));
  auto t1 = start();
  auto t2 = start();
  EXPECT_EQ(play(*t1, "3", 30, 3), play(*t2, "3", 30, 3));
}

}  // namespace
}  // namespace plateau::biloba
