// The store's writer: one group of 100 move batches (each a move and its table's data, as a
// table commits one) applied and committed by a backend: SQLite (WAL with synchronous=FULL, in
// a fresh database under the temporary directory) and PostgreSQL (synchronous_commit=on, the
// database of PLATEAU_BENCH_PG_URL, emptied first; skipped without it). CPU time is the
// writer's own cost; real time includes the fsync (and PostgreSQL's round trips).
// Results: docs/PERFORMANCE.md, "Server", and docs/STORE.md.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "store/pg_connection.h"
#include "store/postgres_backend.h"
#include "store/sqlite_backend.h"

namespace {

using namespace plateau::store;

void commit_groups(benchmark::State& st, Backend& backend) {
  constexpr int kTables = 500;
  constexpr int kGroup = 100;
  const std::string data(600, 'x');  // about a BohnDuell table's JSON
  Batch tables;
  for (int i = 1; i <= kTables; ++i) tables.put_table({i, "bohnduell", 100 + i, data, 1});
  const Batch* one = &tables;
  backend.commit_group({&one, 1}, 1);
  std::vector<int> ply(kTables + 1, 0);
  int next = 0;
  for (auto _ : st) {
    std::vector<Batch> batches(kGroup);
    std::vector<const Batch*> group;
    for (Batch& b : batches) {
      const int id = 1 + next++ % kTables;
      b.add_move({id, ++ply[id], "S4", 0, false, 2});
      b.put_table({id, "bohnduell", 100 + id, data, 1});
      group.push_back(&b);
    }
    const GroupOutcome out = backend.commit_group(group, 2);
    if (out.commit_error) st.SkipWithError("commit failed");
  }
  st.SetItemsProcessed(st.iterations() * kGroup);
}

void BM_StoreCommitGroup(benchmark::State& st) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("plateau-store-bench-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    SqliteBackend backend(dir / "plateau.db");
    commit_groups(st, backend);
  }
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_StoreCommitGroup)->Unit(benchmark::kMillisecond);

void BM_PostgresCommitGroup(benchmark::State& st) {
  const char* url = std::getenv("PLATEAU_BENCH_PG_URL");
  if (!url) {
    st.SkipWithError("set PLATEAU_BENCH_PG_URL to an empty database's URL");
    return;
  }
  pg::Connection(url).exec("DROP SCHEMA public CASCADE; CREATE SCHEMA public");
  PostgresBackend backend(url);
  commit_groups(st, backend);
}
BENCHMARK(BM_PostgresCommitGroup)->Unit(benchmark::kMillisecond);

}  // namespace
