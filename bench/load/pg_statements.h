#pragma once
// Where a PostgreSQL run's database time goes (plateau_load --pg-statements, docs/PERFORMANCE.md
// "Server on PostgreSQL"): PostgreSQL's own pg_stat_statements, counted over the measurement and
// reported by total execution time. The cluster must have been started with the module
// preloaded (kPreloadOptions, given to pg_cluster.sh through PLATEAU_PG_EXTRA).
#include <string>

#include "store/pg_connection.h"

namespace plateau::bench {

// The server options that load pg_stat_statements and count every statement (nested ones too).
inline constexpr const char* kPreloadOptions =
    "-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all";

// Creates the extension in the database (after its schema was reset) and zeroes its counts.
// Throws store::pg::Error if the module is not loaded.
void statements_reset(store::pg::Connection& db);

// The `top` statements by total execution time since statements_reset(): calls, calls per move
// (`moves` acknowledged in the run), total and mean milliseconds, rows, and the statement's
// text (whitespace squeezed, cut at 140 characters). One line each, a header first.
std::string statements_report(store::pg::Connection& db, int top, long moves);

}  // namespace plateau::bench
