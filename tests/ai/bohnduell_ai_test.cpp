// BohnDuell's exact solver and perfect play (specs/bohnduell.md §11, TV-21), its evaluation
// hooks, and level 5 against the solver on random reachable positions (the small version of the
// measurement in docs/AI.md).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "ai/bot.h"
#include "core/registry.h"
#include "games/bohnduell/bohnduell_game.h"
#include "games/bohnduell/bohnduell_notation.h"
#include "games/bohnduell/bohnduell_solver.h"
#include "games/register.h"

namespace plateau::bohnduell {
namespace {

std::shared_ptr<const BohnDuellGame> game_of(const std::string& spec) {
  register_builtin_games();
  return std::dynamic_pointer_cast<const BohnDuellGame>(make_game(spec));
}

// Values of the start moves S1..S4 and the start value.
struct StartValues {
  int root;
  std::vector<int> moves;
  std::uint64_t reachable;
};

StartValues solve_start(const Rules& rules) {
  ValueTable table(rules);
  StartValues out{};
  out.root = solve(table, start_position(rules), {}, &out.reachable);
  ExactSearcher lookup(rules, std::shared_ptr<const ValueTable>(&table, [](auto*) {}), 0);
  out.moves = *lookup.move_values(start_position(rules));
  return out;
}

TEST(BohnDuellSolver, Tv21SupplyTwelve) {
  Rules r;
  r.supply = 12;
  StartValues v = solve_start(r);
  EXPECT_EQ(v.root, -1);
  EXPECT_EQ(v.moves, (std::vector<int>{-7, -4, -3, -1}));
  EXPECT_EQ(v.reachable, 3'385'307u);
}

TEST(BohnDuellSolver, ReachableCountsOfSmallSupplies) {
  // §11.2: N = 8 and N = 10.
  Rules r;
  r.supply = 8;
  EXPECT_EQ(solve_start(r).reachable, 34'206u);
  r.supply = 10;
  EXPECT_EQ(solve_start(r).reachable, 487'478u);
}

TEST(BohnDuellSolver, PerfectPlayMarginsWithDefaults) {
  // §11.3: N = 1..11 (12 is TV-21); S4 is a best first move, S3 too only for N = 2 and 9.
  const int expected[] = {0, 0, 0, 0, 0, -1, -2, 0, -2, -1, -2};
  for (int n = 1; n <= 11; ++n) {
    Rules r;
    r.supply = n;
    StartValues v = solve_start(r);
    EXPECT_EQ(v.root, expected[n - 1]) << "N = " << n;
    // Legal start moves are those the supply affords: S(5-c) for cost c <= n.
    const int s4 = v.moves.back();
    EXPECT_EQ(s4, v.root) << "N = " << n;
    if (v.moves.size() >= 2) {
      const int s3 = v.moves[v.moves.size() - 2];
      EXPECT_EQ(s3 == v.root, n == 2 || n == 9) << "N = " << n;
    }
  }
}

TEST(BohnDuellSolver, PerfectPlayMarginsOfVariants) {
  // §11.3 steal_scope = any and short_supply = partial.
  const std::pair<int, int> any[] = {{1, 0},  {2, 0}, {3, 0}, {4, 0},   {5, 0},  {6, 0},
                                     {7, -3}, {8, 0}, {9, 0}, {10, -1}, {12, -1}};
  for (auto [n, margin] : any) {
    Rules r;
    r.supply = n;
    r.steal_any = true;
    EXPECT_EQ(solve_start(r).root, margin) << "any, N = " << n;
  }
  const std::pair<int, int> partial[] = {{6, 0},  {7, 0},   {8, -1}, {9, -1},
                                         {10, 0}, {11, -1}, {12, -1}};
  for (auto [n, margin] : partial) {
    Rules r;
    r.supply = n;
    r.short_supply_partial = true;
    EXPECT_EQ(solve_start(r).root, margin) << "partial, N = " << n;
  }
}

TEST(BohnDuellSolver, TableFileRoundTrip) {
  Rules r;
  r.supply = 7;
  r.steal_any = true;
  auto table = std::make_shared<ValueTable>(r);
  solve(*table, start_position(r));
  const std::string path =
      (std::filesystem::temp_directory_path() / "plateau-ai-test-7.table").string();
  table->save(path);
  auto loaded = ValueTable::load(path);
  std::filesystem::remove(path);
  EXPECT_EQ(rules_key(loaded->rules()), "supply=7,steal_scope=any");
  ASSERT_EQ(loaded->size(), table->size());
  for (std::uint64_t i = 0; i < table->size(); ++i) {
    ASSERT_EQ(loaded->get(i), table->get(i)) << i;
  }
  EXPECT_EQ(table_file_name(r), "bohnduell-supply=7,steal_scope=any.table");
  EXPECT_THROW(ValueTable::load("/nonexistent/plateau.table"), std::runtime_error);
  // A file that is not a table, and a table cut short.
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fputs("hello", f);
    std::fclose(f);
    try {
      ValueTable::load(path);
      ADD_FAILURE();
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "'" + path + "' is not a BohnDuell value table");
    }
  }
  table->save(path);
  std::filesystem::resize_file(path, 5000);
  EXPECT_THROW(ValueTable::load(path), std::runtime_error);
  std::filesystem::remove(path);
}

// Positions drawn from uniformly random games: a uniformly chosen non-final position of each.
std::vector<Position> random_positions(const Rules& rules, int count, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Position> out;
  while (static_cast<int>(out.size()) < count) {
    std::vector<Position> line;
    Position pos = start_position(rules);
    while (!pos.over) {
      line.push_back(pos);
      std::vector<int> codes;
      const unsigned mask = legal_mask(rules, pos);
      for (int c = 0; c < kNumMoveCodes; ++c) {
        if (mask & (1u << c)) codes.push_back(c);
      }
      apply_move(rules, pos, codes[rng.below(static_cast<std::uint32_t>(codes.size()))]);
    }
    out.push_back(line[rng.below(static_cast<std::uint32_t>(line.size()))]);
  }
  return out;
}

TEST(BohnDuellSolver, ExactSearchWithoutATableAgreesWithTheTable) {
  Rules r;
  r.supply = 8;
  ValueTable table(r);
  solve(table, start_position(r));
  for (const Position& p : random_positions(r, 200, 11)) {
    ExactSearcher s(r, nullptr, ~0ull);
    EXPECT_EQ(s.value(p), table.get(table.index(p))) << format_position(p);
  }
}

TEST(BohnDuellSolver, SearchGivesUpAtItsBudget) {
  Rules r;
  ExactSearcher s(r, nullptr, 1000);
  EXPECT_EQ(s.value(start_position(r)), std::nullopt);
  EXPECT_EQ(s.nodes(), 1001u);
}

// Level 5 plays a move whose exact value is the position's value (the small version of the
// docs/AI.md measurement, which runs 10,000 positions for each supply 12..20).
void expect_level5_perfect(const std::string& spec, int count, std::uint64_t seed) {
  auto game = game_of(spec);
  const Rules& r = game->rules();
  auto table = std::make_shared<ValueTable>(r);
  solve(*table, start_position(r));
  register_table(table);
  auto bot = make_bot("5", seed);
  for (const Position& p : random_positions(r, count, seed)) {
    const Move m = bot->choose_move(*game->make_state(p));
    ExactSearcher lookup(r, table, 0);
    std::vector<int> values = *lookup.move_values(p);
    std::vector<Move> moves = game->make_state(p)->legal_moves();
    const auto i =
        static_cast<std::size_t>(std::find(moves.begin(), moves.end(), m) - moves.begin());
    ASSERT_LT(i, moves.size());
    EXPECT_EQ(values[i], *table->get(table->index(p))) << spec << " " << format_position(p);
  }
}

TEST(BohnDuellLevel5, PerfectOnRandomPositions) {
  expect_level5_perfect("bohnduell(supply=10)", 300, 3);
  expect_level5_perfect("bohnduell(supply=12)", 300, 4);
  expect_level5_perfect("bohnduell(supply=11,steal_scope=any)", 100, 5);
}

TEST(BohnDuellLevel5, PerfectWithoutATableByExactSearch) {
  // Supply 40 has no table and is never solved in memory; late positions are searched exactly.
  // TV-19's position (harvest-only): H1 is the only move that clears all 9 balls.
  auto game = game_of("bohnduell(supply=40)");
  auto s = game->parse_state("A[1 2 2 4] s0 S0 · B[0 0 0 0] s0 S0 · A to move");
  auto bot = make_bot("5", 1);
  ai::SearchResult r = bot->analyse(*s);
  EXPECT_EQ(s->move_to_string(r.best), "H1");
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.exact_value, 9);
  EXPECT_EQ(r.pv.size(), 9u);
}

TEST(BohnDuellHooks, EvaluateOrderAndPlayout) {
  auto game = game_of("bohnduell(supply=12)");
  // TV-02: B's S4 steals A1 (1 ball): ordered first.
  auto s = game->initial_state();
  s->apply_text("S1");
  std::vector<Move> moves = s->distinct_moves();
  s->order_moves(moves);
  EXPECT_EQ(s->move_to_string(moves.front()), "S4");
  // A finished game evaluates to its returns; the evaluation sums to 1.
  auto over = game->parse_state("A[0 3 0 0] s0 S10 · B[0 0 0 2] s0 S9");
  EXPECT_EQ(over->evaluate(), (std::vector<double>{1.0, 0.0}));
  auto mid = game->parse_state("A[1 0 0 0] s5 S3 · B[0 0 4 0] s5 S0 · A to move");
  std::vector<double> e = mid->evaluate();
  EXPECT_NEAR(e[0] + e[1], 1.0, 1e-12);
  EXPECT_GT(e[0], 0.5);
  // Playout moves are legal.
  Rng rng(1);
  for (int i = 0; i < 50; ++i) {
    Move m = mid->playout_move(rng);
    auto legal = mid->legal_moves();
    EXPECT_NE(std::find(legal.begin(), legal.end(), m), legal.end());
  }
}

}  // namespace
}  // namespace plateau::bohnduell
