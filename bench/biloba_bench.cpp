// Biloba speed: random playouts (the rules' hot path: full-turn generation with refill choices,
// apply), move generation and perft. Results: docs/PERFORMANCE.md ("Biloba").
#include <benchmark/benchmark.h>

#include "core/perft.h"
#include "core/random.h"
#include "core/registry.h"
#include "games/biloba/biloba_classic.h"
#include "games/biloba/biloba_game.h"
#include "games/biloba/biloba_threats.h"
#include "games/register.h"

namespace {

// Random full-turn playouts to the end of the game. Random Biloba games can shuffle for
// thousands of turns, so every spec here carries a turn_cap (the game then ends as a draw).
void BM_BilobaRandomPlayout(benchmark::State& st, const char* spec) {
  plateau::register_builtin_games();
  auto game = plateau::make_game(spec);
  auto start = game->initial_state();
  plateau::Rng rng(1);
  std::int64_t plies = 0;
  std::int64_t finished = 0;  // ended by the rules, not by the cap
  for (auto _ : st) {
    auto s = start->clone();
    std::vector<plateau::Move> moves;
    while (!s->is_terminal()) {
      moves = s->legal_moves();
      s->apply(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
      ++plies;
    }
    if (s->result_text() != "Result: Draw.") ++finished;
  }
  st.counters["playouts/s"] =
      benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.counters["plies/s"] =
      benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
  st.counters["plies/playout"] =
      static_cast<double>(plies) / static_cast<double>(std::max<std::int64_t>(1, st.iterations()));
  st.counters["decided"] = static_cast<double>(finished) / static_cast<double>(st.iterations());
}

void BM_BilobaLegalMovesAtStart(benchmark::State& st, const char* spec) {
  plateau::register_builtin_games();
  auto start = plateau::make_game(spec)->initial_state();
  std::size_t n = 0;
  for (auto _ : st) {
    auto moves = start->legal_moves();
    n = moves.size();
    benchmark::DoNotOptimize(moves.data());
  }
  st.counters["moves"] = static_cast<double>(n);
}

void BM_BilobaPerft(benchmark::State& st, const char* spec, int depth) {
  plateau::register_builtin_games();
  auto start = plateau::make_game(spec)->initial_state();
  std::uint64_t nodes = 0;
  for (auto _ : st) nodes = plateau::perft(*start, depth);
  st.counters["leaves"] = static_cast<double>(nodes);
  st.counters["leaves/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
}

// Threatened pawns of both colours (the evaluation's threat term) in a middle-game position:
// the classic player's loop (threatened_count) against the bitboard count (biloba_threats.h).
void BM_BilobaThreatCount(benchmark::State& st, bool fast) {
  plateau::register_builtin_games();
  auto s = plateau::make_game("biloba")->initial_state();
  plateau::Rng rng(12345);
  for (int i = 0; i < 10 && !s->is_terminal(); ++i) {
    auto moves = s->legal_moves();
    s->apply(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
  }
  const auto& pos = static_cast<const plateau::biloba::BilobaState&>(*s).position();
  int n = 0;
  for (auto _ : st) {
    for (int c = 0; c < 2; ++c) {
      n += fast ? plateau::biloba::threatened_count_fast(pos, c)
                : plateau::biloba::threatened_count(pos, c);
    }
    benchmark::DoNotOptimize(n);
  }
}

BENCHMARK_CAPTURE(BM_BilobaThreatCount, classic, false)->Unit(benchmark::kNanosecond);
BENCHMARK_CAPTURE(BM_BilobaThreatCount, bitboards, true)->Unit(benchmark::kNanosecond);
BENCHMARK_CAPTURE(BM_BilobaRandomPlayout, 2p_cap1000, "biloba(turn_cap=1000)")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BilobaRandomPlayout, 4p_cap1000, "biloba(players=4,turn_cap=1000)")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BilobaLegalMovesAtStart, 2p, "biloba")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_BilobaLegalMovesAtStart, 4p, "biloba(players=4)")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_BilobaPerft, 2p_d3, "biloba", 3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BilobaPerft, 2p_d4, "biloba", 4)->Unit(benchmark::kMillisecond);

}  // namespace
