#include "pg_statements.h"

#include <cstdio>

namespace plateau::bench {

void statements_reset(store::pg::Connection& db) {
  db.exec("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  db.exec("SELECT pg_stat_statements_reset()");
}

std::string statements_report(store::pg::Connection& db, int top, long moves) {
  auto r = db.run(
      "SELECT calls, total_exec_time, rows, "
      "left(regexp_replace(query, '\\s+', ' ', 'g'), 140) FROM pg_stat_statements "
      "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
      "ORDER BY total_exec_time DESC LIMIT $1",
      store::pg::Params().integer(top));
  std::string out = "database time by statement (pg_stat_statements, the measurement):\n";
  out += "     calls  per move   total ms  mean ms       rows  statement\n";
  char buf[128];
  for (int i = 0; i < r.rows(); ++i) {
    const double calls = r.real(i, 0);
    const double total = r.real(i, 1);
    std::snprintf(buf, sizeof buf, "%10.0f  %8.3f  %9.1f  %7.3f  %9.0f  ", calls,
                  moves > 0 ? calls / static_cast<double>(moves) : 0.0, total,
                  calls > 0 ? total / calls : 0.0, r.real(i, 2));
    out += buf + r.text(i, 3) + "\n";
  }
  return out;
}

}  // namespace plateau::bench
