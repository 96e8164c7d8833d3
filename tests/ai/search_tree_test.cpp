// Alpha-beta searches the same tree as before its speed work (issue 14, docs/PERFORMANCE.md):
// fixed searches of Biloba (2 players, 3 players paranoid, 4 players best-reply, the positions
// of bench/ai_bench.cpp) and BohnDuell, recorded on commit e6ccdc2. Besides the move, the pins
// are the tree's fingerprints: the nodes, the work of every move list made (one more or one
// fewer list anywhere changes it), the depth completed, the score and the repetitions met. A
// change here means the search or a game hook visits another tree, so the node rates of
// docs/PERFORMANCE.md and the levels of docs/AI.md no longer compare.
// Also the key set the search keeps the game's earlier positions in (ai/key_set.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "ai/alphabeta.h"
#include "ai/key_set.h"
#include "middle_position.h"  // bench/: the positions of the benchmarks

namespace plateau {
namespace {

// "best pv... | nodes N work W depth D | depth D, N nodes, score S[, R repetitions]": the info
// line without its milliseconds.
std::string summary(const State& s, const ai::SearchResult& r) {
  std::string out = s.move_to_string(r.best) + " pv";
  auto line = s.clone();
  for (const Move& m : r.pv) {
    out += ' ';
    out += line->move_to_string(m);
    line->apply(m);
  }
  out += " | nodes " + std::to_string(r.iterations) + " work " + std::to_string(r.work) +
         " depth " + std::to_string(r.depth) + " |";
  const std::string& info = r.info;
  const auto ms = info.find(" ms,");
  const auto cut = info.rfind(", ", ms);
  if (ms == std::string::npos || cut == std::string::npos) return out + " " + info;
  return out + " " + info.substr(0, cut) + info.substr(ms + 3);
}

std::string search(ai::AlphaBeta& ab, const State& s, std::uint64_t nodes) {
  ai::SearchLimits limits;
  limits.budget = nodes;
  const std::string got = summary(s, ab.search(s, limits));
  if (std::getenv("PLATEAU_PRINT_TREES")) std::cout << "\"" << got << "\"\n";
  return got;
}

ai::AlphaBetaOptions options(ai::MultiSeatMode mode = ai::MultiSeatMode::kParanoid) {
  ai::AlphaBetaOptions o;
  o.multi_seat = mode;
  return o;
}

TEST(SearchTree, BilobaTwoPlayers) {
  auto s = middle_position("biloba", 10);
  ai::AlphaBeta ab(options());
  ai::SearchLimits limits;
  limits.budget = 100'000;
  const ai::SearchResult first = ab.search(*s, limits);
  EXPECT_EQ(summary(*s, first),
            "b5-a6/a6-b6 pv b5-a6/a6-b6 g2-e4 g6-f7 d3-d5 | nodes 100001 work 1557772 depth 4 | "
            "depth 4, 100001 nodes, score -934");
  // Two plies later with the same object, as a bot plays: the search starts from the table and
  // killer moves the first one left.
  ASSERT_GE(first.pv.size(), 2u);
  s->apply(first.pv[0]);
  s->apply(first.pv[1]);
  EXPECT_EQ(search(ab, *s, 100'000),
            "g6-f7 pv g6-f7 | nodes 100001 work 1058202 depth 4 | "
            "depth 4, 100001 nodes, score -934, 17 repetitions");
}

// After forget() a search visits the tree of a new object (bench/ai_bench.cpp relies on it).
TEST(SearchTree, ForgetSearchesAsANewObject) {
  auto start = middle_position("biloba", 10);
  auto later = start->clone();
  ai::AlphaBeta used(options());
  ai::SearchLimits limits;
  limits.budget = 100'000;
  const ai::SearchResult first = used.search(*start, limits);
  later->apply(first.pv[0]);
  later->apply(first.pv[1]);
  (void)used.search(*later, limits);
  used.forget();
  ai::AlphaBeta fresh(options());
  EXPECT_EQ(search(used, *later, 100'000), search(fresh, *later, 100'000));
  // Twice in a row, and at the first position too.
  used.forget();
  EXPECT_EQ(search(used, *start, 100'000), summary(*start, first));
}

// One search from a new object each: 3 players paranoid, 4 players best-reply, BohnDuell.
TEST(SearchTree, OtherSeatsAndGames) {
  struct Case {
    const char* spec;
    int plies;
    ai::MultiSeatMode mode;
    std::uint64_t nodes;
    const char* want;
  };
  const Case cases[] = {
      {"biloba(players=3)", 10, ai::MultiSeatMode::kParanoid, 50'000,
       "i7-g7 pv i7-g7 f1-g1 f8-f9 g7-f6 | nodes 50001 work 618630 depth 4 | "
       "depth 4, 50001 nodes, score -3254"},
      {"biloba(players=4)", 10, ai::MultiSeatMode::kBestReply, 100'000,
       "f2-d4 pv f2-d4 | nodes 100001 work 1711613 depth 1 | depth 1, 100001 nodes, score -4298"},
      {"bohnduell(supply=20)", 6, ai::MultiSeatMode::kParanoid, 100'000,
       "S2 pv S2 S4 S1 S4 S3 S4 S3 S4 S1 S4 S4 S4 S4 H4 | nodes 90152 work 167947 depth 14 | "
       "depth 14, 90152 nodes, score 29986"},
  };
  for (const Case& c : cases) {
    auto s = middle_position(c.spec, c.plies);
    ai::AlphaBeta ab(options(c.mode));
    EXPECT_EQ(search(ab, *s, c.nodes), c.want) << c.spec;
  }
}

TEST(KeySet, HoldsExactlyTheAssignedKeys) {
  ai::KeySet set;
  EXPECT_FALSE(set.contains(0));
  EXPECT_FALSE(set.contains(42));
  std::vector<std::uint64_t> keys = {0, 42, 42, ~std::uint64_t{0}};
  for (std::uint64_t i = 1; i <= 1000; ++i) keys.push_back(i * 0x10000);  // equal low bits
  set.assign(keys);
  for (std::uint64_t k : keys) EXPECT_TRUE(set.contains(k)) << k;
  EXPECT_FALSE(set.contains(1));
  EXPECT_FALSE(set.contains(43));
  EXPECT_FALSE(set.contains(1001 * 0x10000));
  set.assign({7});
  EXPECT_TRUE(set.contains(7));
  EXPECT_FALSE(set.contains(0));
  EXPECT_FALSE(set.contains(42));
  set.assign({});
  EXPECT_FALSE(set.contains(7));
}

}  // namespace
}  // namespace plateau
