// perft and random-playout speed per game. Results: docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include "core/perft.h"
#include "core/random.h"
#include "core/registry.h"
#include "games/register.h"

namespace {

void BM_Perft(benchmark::State& st, const char* spec, int depth) {
  plateau::register_builtin_games();
  auto game = plateau::make_game(spec);
  auto start = game->initial_state();
  std::uint64_t nodes = 0;
  for (auto _ : st) nodes = plateau::perft(*start, depth);
  st.counters["leaves"] = static_cast<double>(nodes);
  st.counters["leaves/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_RandomPlayout(benchmark::State& st, const char* spec) {
  plateau::register_builtin_games();
  auto game = plateau::make_game(spec);
  auto start = game->initial_state();
  plateau::Rng rng(1);
  std::int64_t plies = 0;
  for (auto _ : st) {
    auto s = start->clone();
    while (!s->is_terminal()) {
      auto moves = s->legal_moves();
      s->apply(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
      ++plies;
    }
  }
  st.counters["playouts/s"] = benchmark::Counter(static_cast<double>(st.iterations()),
                                                 benchmark::Counter::kIsRate);
  st.counters["plies/s"] = benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
}

BENCHMARK_CAPTURE(BM_Perft, bohnduell_20_d8, "bohnduell(supply=20)", 8)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_RandomPlayout, bohnduell_20, "bohnduell(supply=20)");

}  // namespace
