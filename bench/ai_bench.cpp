// AI speed per game: MCTS playouts per second, alpha-beta nodes per second, the game's playout
// policy, the BohnDuell exact solver (time and table memory), and how closely a bot keeps a
// movetime cap. Results: docs/PERFORMANCE.md ("AI").
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>

#include "ai/alphabeta.h"
#include "ai/bot.h"
#include "ai/mcts.h"
#include "core/registry.h"
#include "games/bohnduell/bohnduell_solver.h"
#include "games/phutball/phutball_notation.h"
#include "games/phutball/phutball_rules.h"
#include "games/register.h"
#include "middle_position.h"

namespace {

using namespace plateau;

void BM_MctsSearch(benchmark::State& st, const char* spec, int plies, int playout_depth) {
  auto s = middle_position(spec, plies);
  std::uint64_t playouts = 0;
  for (auto _ : st) {
    ai::MctsOptions o;
    o.playout_depth = playout_depth;
    o.reuse_tree = false;
    ai::Mcts mcts(o);
    ai::SearchLimits limits;
    limits.budget = 2000;
    playouts += mcts.search(*s, limits).iterations;
  }
  st.counters["playouts/s"] =
      benchmark::Counter(static_cast<double>(playouts), benchmark::Counter::kIsRate);
}

// One search of 100,000 nodes from a middle position, from the state of a new search object
// (an empty table, no killer moves) every iteration. The object itself is kept, as a bot keeps
// its search from move to move: a new one per iteration also had the kernel map and clear a
// fresh 24 MB table every time (8 % of this benchmark's time), which a bot pays once per game.
void BM_AlphaBetaSearch(benchmark::State& st, const char* spec, int plies) {
  auto s = middle_position(spec, plies);
  std::uint64_t nodes = 0;
  ai::AlphaBeta ab(ai::AlphaBetaOptions{});
  for (auto _ : st) {
    ab.forget();
    ai::SearchLimits limits;
    limits.budget = 100'000;
    nodes += ab.search(*s, limits).iterations;
  }
  st.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}

void BM_PolicyPlayout(benchmark::State& st, const char* spec) {
  auto start = middle_position(spec, 0);
  Rng rng(1);
  std::int64_t plies = 0;
  for (auto _ : st) {
    auto s = start->clone();
    // Biloba bots can shuffle for ever: a playout stops after 1000 plies.
    for (int i = 0; i < 1000 && !s->is_terminal(); ++i) {
      s->apply(s->playout_move(rng));
      ++plies;
    }
  }
  st.counters["playouts/s"] =
      benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.counters["plies/s"] =
      benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
}

// Exact solve of BohnDuell from the start (one iteration: supply 20 takes minutes and 2.8 GB).
void BM_BohnDuellSolve(benchmark::State& st, int supply) {
  bohnduell::Rules r;
  r.supply = supply;
  std::uint64_t solved = 0;
  for (auto _ : st) {
    bohnduell::ValueTable table(r);
    bohnduell::solve(table, bohnduell::start_position(r), {}, &solved);
    benchmark::DoNotOptimize(solved);
  }
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  st.counters["positions"] = static_cast<double>(solved);
  st.counters["positions/s"] = benchmark::Counter(static_cast<double>(solved) * st.iterations(),
                                                  benchmark::Counter::kIsRate);
  st.counters["table_MB"] = static_cast<double>(bohnduell::ValueTable::byte_count(supply)) / 1e6;
  st.counters["maxRSS_MB"] = static_cast<double>(ru.ru_maxrss) / 1e3;
}

// A bot with a movetime cap on positions where it would think longer: the slowest answer.
void BM_MovetimeCap(benchmark::State& st, const char* spec, const char* bot_name, int cap_ms) {
  double worst_ms = 0;
  for (auto _ : st) {
    for (int plies : {0, 6, 12, 18}) {
      auto s = middle_position(spec, plies);
      if (s->is_terminal()) continue;
      BotOptions o;
      o.movetime_ms = cap_ms;
      auto bot = make_bot(bot_name, o);
      const auto t0 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(bot->choose_move(*s));
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      worst_ms = std::max(worst_ms, ms);
    }
  }
  st.counters["cap_ms"] = cap_ms;
  st.counters["worst_ms"] = worst_ms;
}

// Time per move of a level: `moves` moves of a self-play game from a middle position.
void BM_LevelMove(benchmark::State& st, const char* spec, const char* level, int plies, int moves) {
  double worst_ms = 0, total_ms = 0;
  int n = 0;
  std::vector<double> times;
  for (auto _ : st) {
    auto s = middle_position(spec, plies);
    auto bot = make_bot(level, 1);
    for (int i = 0; i < moves && !s->is_terminal(); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const Move m = bot->choose_move(*s);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      worst_ms = std::max(worst_ms, ms);
      total_ms += ms;
      times.push_back(ms);
      ++n;
      s->apply(m);
    }
  }
  st.counters["mean_ms"] = n ? total_ms / n : 0.0;
  st.counters["worst_ms"] = worst_ms;
  std::sort(times.begin(), times.end());
  st.counters["median_ms"] = times.empty() ? 0.0 : times[times.size() / 2];
}

// Phutball win-in-one on TV-20's blocks (ball H10 inside a k×k square of men): 7×7 has
// 955,182 jump states and no win, so the search must visit them all to prove it.
void BM_PhutballWinInOne(benchmark::State& st, int half) {
  register_builtin_games();
  std::string men;
  for (int dc = -half; dc <= half; ++dc) {
    for (int dr = -half; dr <= half; ++dr) {
      if (dc == 0 && dr == 0) continue;
      men += (men.empty() ? "" : ",") + phutball::point_name(phutball::cell_of(7 + dc, 10 + dr));
    }
  }
  auto s = make_game("phutball")->parse_state("ball=H10 men=" + men + " turn=O ply=0");
  for (auto _ : st) benchmark::DoNotOptimize(s->find_winning_move());
}

BENCHMARK_CAPTURE(BM_MctsSearch, bohnduell_20, "bohnduell(supply=20)", 6, 0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AlphaBetaSearch, bohnduell_20, "bohnduell(supply=20)", 6)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PolicyPlayout, bohnduell_20, "bohnduell(supply=20)");
BENCHMARK_CAPTURE(BM_MctsSearch, biloba_2_depth20, "biloba", 10, 20)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AlphaBetaSearch, biloba_2, "biloba", 10)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AlphaBetaSearch, biloba_4, "biloba(players=4)", 10)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PolicyPlayout, biloba_2_1000plies, "biloba");
BENCHMARK_CAPTURE(BM_LevelMove, bohnduell_20_level5, "bohnduell(supply=20)", "5", 4, 10)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LevelMove, biloba_2_level5, "biloba", "5", 10, 10)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LevelMove, biloba_4_level5, "biloba(players=4)", "5", 10, 10)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MovetimeCap, biloba_2_level5_100ms, "biloba", "5", 100)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_AlphaBetaSearch, phutball, "phutball", 10)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PolicyPlayout, phutball_1000plies, "phutball");
BENCHMARK_CAPTURE(BM_PhutballWinInOne, block_5x5, 2)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PhutballWinInOne, block_7x7, 3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LevelMove, phutball_level5, "phutball", "5", 10, 10)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MovetimeCap, phutball_level5_100ms, "phutball", "5", 100)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_MovetimeCap, bohnduell_30_level5_100ms, "bohnduell(supply=30)", "5", 100)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BohnDuellSolve, supply_12, 12)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(BM_BohnDuellSolve, supply_16, 16)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(BM_BohnDuellSolve, supply_20, 20)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace
