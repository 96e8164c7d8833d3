// Issue 12 item 10: every bot honours its move time and a work (memory) bound on every
// position, including dense Phutball blocks (a ball inside a 7×7 block has 12.7M jump paths and
// 955,182 jump states; an 8×8 block many more). Deterministic: no test times anything. Work is
// counted in positions visited by the bounded hooks (SearchResult::work, WorkBudget::used), and
// the move time runs on an injected clock that advances a fixed step at every reading, so a
// search that polls its deadline too rarely or ignores it shows up as a count, not as a delay.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>

#include "ai/bot.h"
#include "ai/levels.h"
#include "ai/limits.h"
#include "core/registry.h"
#include "games/phutball/phutball_game.h"
#include "games/phutball/phutball_notation.h"
#include "games/register.h"

namespace plateau {
namespace {

using phutball::cell_of;
using phutball::PhutballState;

// Men on the columns H-lo..H+hi and rows 10-lo..10+hi except H10 (the ball), Ohs to move:
// (3, 3) is the 7×7 block of TV-20 (tests/games/phutball_test.cpp), (4, 3) an 8×8 block.
std::unique_ptr<State> block(int lo, int hi) {
  register_builtin_games();
  std::string men;
  for (int row = 1; row <= 19; ++row) {
    for (int col = 0; col < 15; ++col) {
      const int dc = col - 7;
      const int dr = row - 10;
      if (dc < -lo || dc > hi || dr < -lo || dr > hi || (dc == 0 && dr == 0)) continue;
      men += (men.empty() ? "" : ",") + phutball::point_name(cell_of(col, row));
    }
  }
  return make_game("phutball")->parse_state("ball=H10 men=" + men + " turn=O ply=0");
}

// A legal move of `s` (parse_move validates a placement or a whole jump path without listing
// any other move) that round-trips through notation.
void expect_legal(const State& s, const Move& m, const std::string& what) {
  const std::string text = s.move_to_string(m);
  Move parsed;
  ASSERT_NO_THROW(parsed = s.parse_move(text)) << what << ": " << text;
  EXPECT_EQ(parsed, m) << what << ": " << text;
}

// A clock that advances `step_us` at every reading, and counts the readings.
struct SteppingClock {
  std::int64_t step_us;
  std::shared_ptr<std::int64_t> now = std::make_shared<std::int64_t>(0);
  std::shared_ptr<std::int64_t> reads = std::make_shared<std::int64_t>(0);
  ai::Clock clock() const {
    return [now = now, reads = reads, step = step_us] {
      ++*reads;
      return *now += step;
    };
  }
};

const char* const kBots[] = {"1", "2", "3", "4", "5", "greedy", "random"};

// The largest work any bot may spend on one move with a movetime cap that expires after
// `polls` readings: the root's win search and move list each stop at the first poll after the
// deadline (polled every kStopPollStates = 2048 jump states), interior nodes poll every
// kDeadlinePollWork positions, and one node past the last poll costs at most its two slices.
std::uint64_t work_bound(std::uint64_t polls) {
  return polls * ai::kDeadlinePollWork + 2 * 2048 + ai::kNodeMoveWork + ai::kNodeWinWork + 1000;
}

TEST(BotBounds, EveryBotStopsAtTheMoveTimeOnDensePhutballBlocks) {
  // 10 ms per reading, movetime 100 ms: the deadline has passed at the 11th reading.
  for (auto [lo, hi] : {std::pair{3, 3}, std::pair{4, 3}}) {
    const auto s = block(lo, hi);
    const std::string where = std::to_string(lo + hi + 1) + "x" + std::to_string(lo + hi + 1);
    for (const char* name : kBots) {
      SteppingClock c{10'000};
      BotOptions o;
      o.seed = 7;
      o.movetime_ms = 100;
      o.clock = c.clock();
      auto bot = make_bot(name, o);
      const ai::SearchResult r = bot->analyse(*s);
      const std::string what = where + " bot " + name;
      expect_legal(*s, r.best, what);
      // Readings: about 10 until the deadline, then a handful while the search unwinds (each
      // poll point notices the deadline at once).
      EXPECT_LE(*c.reads, 40) << what << ": " << r.info;
      EXPECT_LE(r.work, work_bound(static_cast<std::uint64_t>(*c.reads))) << what << ": " << r.info;
    }
  }
}

TEST(BotBounds, LevelsWithoutMoveTimeStayWithinTheirWorkCap) {
  // No movetime: the work caps of ai/limits.h alone end the search. Level 1 (50 nodes) and the
  // list-based bots; the root's win search proves the 7×7 block has no win (955,182 states) and
  // gives up on the 8×8 block at kRootWinWork.
  for (auto [lo, hi] : {std::pair{3, 3}, std::pair{4, 3}}) {
    const auto s = block(lo, hi);
    for (const char* name : {"1", "random"}) {
      auto bot = make_bot(name, 3);
      const ai::SearchResult r = bot->analyse(*s);
      const std::string what = std::to_string(lo) + "," + std::to_string(hi) + " bot " + name;
      expect_legal(*s, r.best, what);
      const std::uint64_t nodes = ai::level_spec(*make_game("phutball"), 1).budget;
      EXPECT_LE(r.work, ai::kRootWinWork + ai::kRootMoveWork + nodes * ai::kWorkPerIteration +
                            ai::kNodeMoveWork + ai::kNodeWinWork)
          << what << ": " << r.info;
    }
  }
}

TEST(BotBounds, RandomWalksOverStepsWhenTheListIsCut) {
  // 8×8 block: the bounded list stops at kRootMoveWork, so `random` walks through step input;
  // over a few seeds it plays placements and jumps, all legal, and differs between seeds.
  const auto s = block(4, 3);
  std::set<std::string> seen;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    auto bot = make_bot("random", seed);
    const ai::SearchResult r = bot->analyse(*s);
    expect_legal(*s, r.best, "seed " + std::to_string(seed));
    EXPECT_NE(r.info.find("random walk"), std::string::npos) << r.info;
    seen.insert(s->move_to_string(r.best));
  }
  EXPECT_GE(seen.size(), 6u);
}

TEST(BotBounds, PhutballBoundedMovesAreASubsetWithinTheLimit) {
  const auto s = block(3, 3);
  WorkBudget b{10'000};
  const std::vector<Move> moves = s->bounded_distinct_moves(b);
  EXPECT_TRUE(b.truncated);
  EXPECT_LE(b.used, 10'000u);
  EXPECT_GE(b.used, 9'000u);
  EXPECT_GT(moves.size(), 236u);  // every placement, then jump results
  for (const Move& m : moves) expect_legal(*s, m, "bounded 7x7");
  // A small block fits: the same list as distinct_moves(), not truncated.
  const auto small = block(2, 2);
  WorkBudget all{1'000'000};
  EXPECT_EQ(small->bounded_distinct_moves(all), small->distinct_moves());
  EXPECT_FALSE(all.truncated);
}

TEST(BotBounds, PhutballBoundedWinSearchSaysNotKnown) {
  const auto s = block(3, 3);
  WorkBudget few{50'000};
  EXPECT_FALSE(s->bounded_winning_move(few).has_value());
  EXPECT_TRUE(few.truncated);
  EXPECT_EQ(few.used, 50'000u);
  // With room for all 955,182 jump states the answer is a proof.
  WorkBudget all{1'000'000};
  EXPECT_FALSE(s->bounded_winning_move(all).has_value());
  EXPECT_FALSE(all.truncated);
  EXPECT_EQ(all.used, 955'182u);
  // A stop function ends it at its first poll.
  int polls = 0;
  WorkBudget stopped{1'000'000, [&polls] { return ++polls >= 1; }};
  EXPECT_FALSE(s->bounded_winning_move(stopped).has_value());
  EXPECT_TRUE(stopped.truncated);
  EXPECT_EQ(polls, 1);
  EXPECT_LE(stopped.used, 2048u);
}

TEST(BotBounds, BilobaBoundedTurnsAreASubsetAndTheFullListMatches) {
  register_builtin_games();
  const auto s = make_game("biloba")->initial_state();
  WorkBudget few{10};
  const std::vector<Move> some = s->bounded_distinct_moves(few);
  EXPECT_TRUE(few.truncated);
  const std::vector<Move> all = s->distinct_moves();
  ASSERT_FALSE(some.empty());
  EXPECT_LT(some.size(), all.size());
  for (const Move& m : some) EXPECT_NE(std::find(all.begin(), all.end(), m), all.end());
  WorkBudget room{1'000'000};
  EXPECT_EQ(s->bounded_distinct_moves(room), all);
  EXPECT_FALSE(room.truncated);
}

}  // namespace
}  // namespace plateau
