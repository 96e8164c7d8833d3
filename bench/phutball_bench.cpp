// Phutball speed: perft from the start position (specs/phutball.md §13.1, TV-21) and the
// jump-state walks on the 7×7 block of TV-20 (§13.2). Results: docs/PERFORMANCE.md, "Phutball".
#include <benchmark/benchmark.h>

#include "core/perft.h"
#include "core/registry.h"
#include "games/phutball/phutball_game.h"
#include "games/phutball/phutball_jumps.h"
#include "games/register.h"

namespace {

using namespace plateau;

std::shared_ptr<const phutball::PhutballGame> phutball_game() {
  register_builtin_games();
  return std::dynamic_pointer_cast<const phutball::PhutballGame>(make_game("phutball"));
}

// TV-20: ball H10, men on the 7×7 square around it.
std::unique_ptr<State> block7() {
  auto g = phutball_game();
  phutball::Position pos = phutball::start_position(g->rules());
  for (int dc = -3; dc <= 3; ++dc) {
    for (int dr = -3; dr <= 3; ++dr) {
      if (dc || dr) pos.men[phutball::cell_of(7 + dc, 10 + dr)] = 1;
    }
  }
  phutball::refresh(pos);
  return g->make_state(pos);
}

void BM_PhutballPerft(benchmark::State& st, int depth) {
  auto start = phutball_game()->initial_state();
  std::uint64_t leaves = 0;
  for (auto _ : st) leaves = perft(*start, depth);
  st.counters["leaves"] = static_cast<double>(leaves);
  st.counters["leaves/s"] = benchmark::Counter(static_cast<double>(leaves),
                                               benchmark::Counter::kIsIterationInvariantRate);
}

// distinct_moves() on the 7×7 block: 955,182 jump states plus the placements.
void BM_PhutballDistinctBlock7(benchmark::State& st) {
  auto s = block7();
  std::size_t n = 0;
  for (auto _ : st) n = s->distinct_moves().size();
  st.counters["moves"] = static_cast<double>(n);
}

// Counting the 12.7M paths of the 7×7 block over memoised jump states.
void BM_PhutballCountBlock7(benchmark::State& st) {
  auto s = block7();
  const auto& ps = dynamic_cast<const phutball::PhutballState&>(*s);
  std::uint64_t paths = 0;
  for (auto _ : st) {
    paths = phutball::count_jumps(ps.rules(), ps.position(), {&ps.rules(), phutball::kOhs}).paths;
  }
  st.counters["paths"] = static_cast<double>(paths);
}

// A step query inside the 7×7 block: must not enumerate paths.
void BM_PhutballStepQueryBlock7(benchmark::State& st) {
  auto s = block7();
  for (auto _ : st) benchmark::DoNotOptimize(s->next_steps({"H10", "D10"}));
}

BENCHMARK_CAPTURE(BM_PhutballPerft, d3, 3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PhutballPerft, d4, 4)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_PhutballDistinctBlock7)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PhutballCountBlock7)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PhutballStepQueryBlock7)->Unit(benchmark::kMicrosecond);

}  // namespace
