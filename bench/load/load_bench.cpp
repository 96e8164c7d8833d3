// plateau_load: N text clients playing M BohnDuell boards against `plateau serve` on loopback
// (docs/PERFORMANCE.md, "Server" and "Server on PostgreSQL"). Starts the server on free ports
// with a fresh data directory - its store SQLite (the default) or a throw-away PostgreSQL 15
// cluster (tests/store/pg_cluster.sh, fsync on), one node or several on that database - logs
// every client in as a guest, pairs them into challenges and plays random legal moves
// (load_clients.h) game after game for the given time. Reports moves/s, the latency from
// sending a move to its acknowledgement (p50/p99), the servers' memory, the load average, and -
// after a graceful stop - compares every acknowledged move with the moves in the store: lost and
// duplicated moves must both be 0. All clients share 127.0.0.1, so the servers are started with
// --max-connections-per-address and --max-connections raised to the number of clients + 64.
//
// --nodes N (PostgreSQL): N nodes on one database, the games spread over them (both players of
// a game on the node that opened it; with --spread the second player on the next node for the
// whole run, its commands forwarded to the owner by the node link, the latency of its moves
// reported apart). --pg-statements N lists the N statements that took the database the most
// time over the measurement (pg_stat_statements, pg_statements.h). --kill-after S kills the last
// node with SIGKILL S seconds into the measurement and reports how long until its tables are owned
// by the others; its robots stop, and a move they had sent unanswered may be stored or not (nobody
// was told). With --rejoin they connect to their tables' new owners once the takeover is done,
// `resume`, re-send that move with its #n (played once either way) and play on.
//
// --echo runs the same clients, games and rate against a minimal Boost.Asio line-echo server
// (echo_server.h) instead: every line comes straight back to its sender, so a move's
// "acknowledgement" is its own echo. With --server as well, both run one after the other and a
// last line gives Plateau's moves/s and latency as ratios to the echo's (bare I/O).
//
//   plateau_load --server build/release/plateau --connections 1000 --games 500 --seconds 20
//   plateau_load --server build/release/plateau --store sqlite --store postgresql --rate 2500
//   plateau_load --server build/release/plateau --store postgresql --nodes 3 --kill-after 8
//   plateau_load --server build/release/plateau --echo --rate 2500 --seconds 15
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../../tests/store/pg_test_cluster.h"
#include "core/registry.h"
#include "games/register.h"
#include "load_clients.h"
#include "load_nodes.h"
#include "pg_statements.h"
#include "server/asio.h"
#include "store/pg_connection.h"
#include "stored_moves.h"

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using plateau::bench::Clock;

struct Options {
  plateau::bench::LoadOptions load;
  std::string server;
  std::vector<std::string> stores;  // "sqlite" and/or "postgresql", one run each
  int nodes = 1;
  int threads = 0;        // each server's --threads; 0: its default
  double kill_after = 0;  // seconds into the measurement; 0: no kill
  bool rejoin = false;    // the killed node's robots resume on their tables' new owners
  std::string pg_fsync = "on";
  int pg_statements = 0;  // report the database's top statements (pg_stat_statements); 0: off
  bool echo = false;      // also (or, without --server, only) run against the echo server
  int echo_threads = 2;   // I/O threads of the echo server (plateau serve's default --threads)
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

// What one run measured.
struct RunResult {
  double moves_per_s = 0;
  double p50 = 0, p99 = 0;  // ms
  bool ok = false;          // no error, nothing lost or duplicated
};

// "plateau serve" (SQLite), "plateau serve on PostgreSQL", "3 nodes on PostgreSQL", "echo".
std::string peer_label(const std::string& store, int nodes) {
  if (store == "echo") return "echo server (bare I/O)";
  if (store == "sqlite") return "plateau serve (SQLite)";
  if (nodes == 1) return "plateau serve (PostgreSQL)";
  return std::to_string(nodes) + " plateau serve nodes (PostgreSQL)";
}

RunResult run_once(const Options& opt, const std::string& store) {
  namespace b = plateau::bench;
  const bool echo = store == "echo";
  const bool pg = store == "postgresql";
  const int nodes = pg ? opt.nodes : 1;
  std::string url;
  if (pg) {
    url = plateau::store::testing::pg_url();
    plateau::store::testing::pg_reset();  // every run on an empty database
  }
  const auto dir =
      std::filesystem::temp_directory_path() / ("plateau-load-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::vector<b::Peer> peers;
  std::vector<tcp::endpoint> endpoints;
  if (nodes > 1) b::write_cluster_secret(dir / "cluster-secret");
  for (int i = 0; i < nodes; ++i) {
    b::PeerSpec spec;
    spec.server = opt.server;
    spec.echo = echo;
    spec.echo_threads = opt.echo_threads;
    spec.max_connections = opt.load.connections + 64;
    spec.store_url = url;
    spec.threads = opt.threads;
    if (nodes > 1) {
      spec.node_id = "n" + std::to_string(i + 1);
      spec.secret_file = dir / "cluster-secret";
    }
    spec.dir = dir / ("node" + std::to_string(i + 1));
    peers.push_back(b::start_peer(spec));
    endpoints.emplace_back(asio::ip::make_address("127.0.0.1"), peers.back().text_port);
  }

  b::Robots robots(opt.load, plateau::make_game(opt.load.game), echo, endpoints);
  double load_at_start = -1;
  // CPU seconds of the servers, the PostgreSQL cluster and this process over the measurement.
  const int pg_port = pg ? std::stoi(url.substr(url.rfind(':') + 1)) : 0;
  auto cpu_now = [&] {
    std::array<double, 3> c{0, pg ? b::postgres_cpu_seconds(pg_port) : 0,
                            b::cpu_seconds(::getpid())};
    for (const auto& p : peers) c[0] += p.killed ? 0 : b::cpu_seconds(p.pid);
    return c;
  };
  std::array<double, 3> cpu_start{}, cpu_end{};
  // The database's commits and WAL over the measurement (its statistics lag by up to a second).
  std::unique_ptr<plateau::store::pg::Connection> stats_db;
  if (pg) stats_db = std::make_unique<plateau::store::pg::Connection>(url);
  auto db_now = [&]() -> std::pair<long, long> {
    if (!stats_db) return {0, 0};
    stats_db->exec("SELECT pg_stat_clear_snapshot()");
    auto r = stats_db->run(
        "SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()), "
        "pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint");
    return {static_cast<long>(r.integer(0, 0)), static_cast<long>(r.integer(0, 1))};
  };
  std::pair<long, long> db_start{}, db_end{};
  asio::steady_timer kill_timer(robots.io);
  std::unique_ptr<b::TakeoverWatch> watch;
  const bool kill = pg && nodes > 1 && opt.kill_after > 0;
  robots.run([&] {
    load_at_start = b::load_average();
    cpu_start = cpu_now();
    db_start = db_now();
    if (stats_db && opt.pg_statements > 0) b::statements_reset(*stats_db);
    if (!kill) return;
    kill_timer.expires_after(std::chrono::milliseconds(static_cast<long>(opt.kill_after * 1000)));
    kill_timer.async_wait([&](boost::system::error_code ec) {
      if (ec) return;
      b::kill_peer(peers.back());
      robots.killed_at = Clock::now();
      std::function<void()> rejoin;
      if (opt.rejoin) {
        // On the watch's thread: where each table is now, then back to the robots' thread.
        rejoin = [&] {
          std::map<int, int> owner_node;
          for (const auto& [board, owner] : b::table_owners(url, robots.game_name)) {
            for (std::size_t i = 0; i < peers.size(); ++i) {
              if (peers[i].node_id == owner) owner_node[board] = static_cast<int>(i);
            }
          }
          asio::post(robots.io, [&robots, owner_node] { robots.rejoin_games(owner_node); });
        };
      }
      watch = std::make_unique<b::TakeoverWatch>(url, peers.back().node_id,
                                                 std::chrono::seconds(30), std::move(rejoin));
    });
  });
  const double load_at_end = b::load_average();
  cpu_end = cpu_now();
  db_end = db_now();
  std::string statements;
  if (stats_db && opt.pg_statements > 0) {
    statements = b::statements_report(*stats_db, opt.pg_statements, robots.moves);
  }
  kill_timer.cancel();
  long taken_tables = 0;
  std::chrono::duration<double> takeover{-1};
  if (watch) takeover = watch->wait(taken_tables);
  b::stop_peers(peers);

  const double secs = std::chrono::duration<double>(robots.end - robots.start).count();
  b::StoreCheck check;
  if (!echo) {
    const b::MovesByBoard stored =
        pg ? b::stored_moves_postgres(url, robots.game_name)
           : b::stored_moves_sqlite((dir / "node1" / "data" / "plateau.db").string(),
                                    robots.game_name);
    check = b::compare_moves(robots.acked, stored, robots.in_flight);
  }
  // Moves sent through a node that does not own the table (forwarded by the node link), by the
  // owner at the end (after a kill: the table's new owner, so its earlier moves count as
  // forwarded; the share is reported without a kill).
  long forwarded = 0;
  if (pg && nodes > 1) {
    const auto owners = b::table_owners(url, robots.game_name);
    for (const auto& [board, via] : robots.acked_via) {
      auto o = owners.find(board);
      for (const auto& [node, n] : via) {
        if (o == owners.end() || o->second != peers[node].node_id) forwarded += n;
      }
    }
  }
  std::cout << peer_label(store, nodes) << ": connections " << opt.load.connections << ", games "
            << opt.load.games << " (" << opt.load.game << "), offered "
            << (opt.load.rate > 0 ? std::to_string(static_cast<long>(opt.load.rate)) + " moves/s"
                                  : std::string("as fast as possible"))
            << ", " << secs << " s measured\n";
  if (pg) {
    std::cout << "store: PostgreSQL 15 (fsync " << opt.pg_fsync << ", synchronous_commit on)";
    if (nodes > 1) {
      std::cout << "; games spread over the nodes, "
                << (opt.load.spread ? "the second player on the next node"
                                    : "both players on the node that opened the game");
      if (opt.load.spread) {
        std::cout << " (" << robots.challenge_retries
                  << " challenges sent again: the other node's user not known yet)";
      }
    }
    if (nodes > 1 && !kill) {
      std::cout << "; moves through a node not owning the table " << forwarded << " ("
                << (robots.moves > 0
                        ? 100.0 * static_cast<double>(forwarded) / static_cast<double>(robots.moves)
                        : 0.0)
                << " %)";
    }
    std::cout << "\n";
  }
  RunResult r;
  r.moves_per_s = secs > 0 ? static_cast<double>(robots.moves) / secs : 0;
  r.p50 = percentile(robots.latencies_ms, 0.5);
  r.p99 = percentile(robots.latencies_ms, 0.99);
  std::cout << "moves " << robots.moves << ", " << static_cast<long>(r.moves_per_s)
            << " moves/s; games finished " << robots.games_finished << "\n";
  char buf[200];
  std::snprintf(buf, sizeof buf, "latency p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", r.p50, r.p99,
                percentile(robots.latencies_ms, 1.0));
  std::cout << buf;
  if (!robots.latencies_other_ms.empty()) {
    std::snprintf(buf, sizeof buf,
                  "latency of the moves sent to another node than the challenger's (%zu): p50 "
                  "%.2f ms, p99 %.2f ms; of the others: p50 %.2f ms, p99 %.2f ms\n",
                  robots.latencies_other_ms.size(), percentile(robots.latencies_other_ms, 0.5),
                  percentile(robots.latencies_other_ms, 0.99),
                  percentile(robots.latencies_home_ms, 0.5),
                  percentile(robots.latencies_home_ms, 0.99));
    std::cout << buf;
  }
  std::snprintf(buf, sizeof buf, "new boards: challenge to board p50 %.2f ms, p99 %.2f ms\n",
                percentile(robots.challenge_ms, 0.5), percentile(robots.challenge_ms, 0.99));
  std::cout << buf;
  std::cout << "server memory (peak RSS):";
  for (const auto& p : peers) {
    std::cout << " " << (p.node_id.empty() ? "" : p.node_id + " ") << p.peak_rss_kib / 1024
              << " MiB";
  }
  std::snprintf(buf, sizeof buf, "; load average %.2f at the start, %.2f at the end\n",
                load_at_start, load_at_end);
  std::cout << buf;
  if (!kill && robots.moves > 0) {
    const double n = static_cast<double>(robots.moves) / 1e6;
    std::snprintf(buf, sizeof buf,
                  "CPU per move: servers %.0f us, PostgreSQL %.0f us, robots %.0f us "
                  "(CPU seconds in all: %.1f, %.1f, %.1f)\n",
                  (cpu_end[0] - cpu_start[0]) / n, (cpu_end[1] - cpu_start[1]) / n,
                  (cpu_end[2] - cpu_start[2]) / n, cpu_end[0] - cpu_start[0],
                  cpu_end[1] - cpu_start[1], cpu_end[2] - cpu_start[2]);
    std::cout << buf;
    if (pg) {
      std::snprintf(buf, sizeof buf,
                    "PostgreSQL: %.0f commits/s (%.1f moves each), %.1f KiB of WAL per move\n",
                    static_cast<double>(db_end.first - db_start.first) / secs,
                    static_cast<double>(robots.moves) /
                        std::max(1.0, static_cast<double>(db_end.first - db_start.first)),
                    static_cast<double>(db_end.second - db_start.second) / 1024.0 /
                        static_cast<double>(robots.moves));
      std::cout << buf;
    }
  }
  std::cout << statements;
  b::Robots::StreamCheck streams;
  if (!echo) {
    streams = robots.check_streams();
    std::cout << "event streams: " << streams.streams << " (robot, board) pairs; moves not heard "
              << streams.missing << ", heard twice " << streams.twice
              << ", heard after a later one " << streams.out_of_order << "\n";
  }
  if (kill) {
    std::snprintf(buf, sizeof buf,
                  "takeover: node %s killed (SIGKILL) %.1f s in; its %ld tables owned by the "
                  "others %.2f s after the kill%s\n",
                  peers.back().node_id.c_str(), opt.kill_after, taken_tables, takeover.count(),
                  takeover.count() < 0 ? " (NOT within 30 s)" : "");
    std::cout << buf;
    if (opt.rejoin) {
      std::sort(robots.rejoin_s.begin(), robots.rejoin_s.end());
      std::snprintf(buf, sizeof buf,
                    "rejoined: %d games of the killed node resumed on the new owners, %zu played "
                    "on; kill -> first move acknowledged again: p50 %.2f s, max %.2f s\n",
                    robots.rejoining, robots.rejoin_s.size(), percentile(robots.rejoin_s, 0.5),
                    percentile(robots.rejoin_s, 1.0));
      std::cout << buf;
    }
    std::cout << "connections closed by the killed node " << robots.closed_by_server
              << "; moves sent and unanswered at the kill " << robots.unanswered_at_kill << " ("
              << robots.unanswered_at_kill - static_cast<int>(robots.in_flight.size())
              << " answered after the rejoin; of the others " << check.unanswered << " stored)\n";
  }
  std::cout << "errors " << robots.errors;
  if (echo) {
    std::cout << "; nothing stored (echo)";
  } else {
    std::cout << "; stored moves " << check.stored << "; lost " << check.lost << ", duplicated "
              << check.duplicated;
  }
  int worst_exit = 0;
  for (const auto& p : peers) {
    if (!p.killed && p.exit_status != 0) worst_exit = p.exit_status;
  }
  std::cout << "; server exit status " << worst_exit << "\n" << std::flush;
  bool ok = check.ok() && robots.errors == 0 && robots.moves > 0 && worst_exit == 0;
  // Every robot hears each move of its boards once (a killed node's robots resync instead).
  if (!kill && (streams.missing > 0 || streams.twice > 0)) ok = false;
  if (!kill && robots.closed_by_server > 0) {
    std::cout << "the server closed " << robots.closed_by_server << " connections\n";
    ok = false;
  }
  if (kill && takeover.count() < 0) ok = false;
  // Spread players that never reached another node's table measured nothing of the link.
  if (pg && nodes > 1 && opt.load.spread && !kill && forwarded == 0) {
    std::cout << "no move was forwarded\n";
    ok = false;
  }
  // Every game of the killed node that was sent to its new owner must have played on.
  if (kill && opt.rejoin &&
      (robots.rejoining == 0 ||
       robots.rejoin_s.size() < static_cast<std::size_t>(robots.rejoining)))
    ok = false;
  if (ok) std::filesystem::remove_all(dir);
  r.ok = ok;
  return r;
}

int run(Options opt) {
  plateau::register_builtin_games();
  if (opt.load.connections < 2 * opt.load.games) {
    std::cerr << "need at least 2 connections per game\n";
    return 2;
  }
  if (opt.server.empty() && !opt.echo) {
    std::cerr << "give --server (plateau serve), --echo (the echo server), or both\n";
    return 2;
  }
  if (opt.stores.empty()) opt.stores.push_back("sqlite");
  const bool any_pg = std::count(opt.stores.begin(), opt.stores.end(), "postgresql") > 0;
  if (opt.load.spread && opt.kill_after > 0) {
    // Its robots rejoin by game, both players on the dead node's tables' new owner.
    std::cerr << "--spread does not go with --kill-after (a game's players are on two nodes)\n";
    return 2;
  }
  if (opt.nodes > 1 && !any_pg) {
    std::cerr << "--nodes needs --store postgresql (nodes share one PostgreSQL database)\n";
    return 2;
  }
  if (!opt.server.empty() && any_pg) {
    // Before the cluster starts (pg_cluster.sh reads it): a measurement is durable.
    ::setenv("PLATEAU_PG_FSYNC", opt.pg_fsync.c_str(), 1);
    if (opt.pg_statements > 0) ::setenv("PLATEAU_PG_EXTRA", plateau::bench::kPreloadOptions, 1);
    if (plateau::store::testing::pg_url().empty()) {
      std::cout << "SKIP: " << plateau::store::testing::pg_skip_reason() << "\n";
      return 77;
    }
  }
  bool ok = true;
  RunResult plateau_run, echo_run;
  if (!opt.server.empty()) {
    for (const auto& store : opt.stores) {
      plateau_run = run_once(opt, store);
      ok = ok && plateau_run.ok;
    }
  }
  if (opt.echo) {
    echo_run = run_once(opt, "echo");
    ok = ok && echo_run.ok;
  }
  if (!opt.server.empty() && opt.echo && echo_run.moves_per_s > 0 && echo_run.p50 > 0 &&
      echo_run.p99 > 0) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "plateau / echo: moves/s %.3f, p50 %.1fx, p99 %.1fx (%.2f ms vs %.2f ms)\n",
                  plateau_run.moves_per_s / echo_run.moves_per_s, plateau_run.p50 / echo_run.p50,
                  plateau_run.p99 / echo_run.p99, plateau_run.p99, echo_run.p99);
    std::cout << buf;
  }
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  auto& load = opt.load;
  CLI::App app{"Load test of plateau serve: N text clients playing M games on loopback",
               "plateau_load"};
  app.add_option("--server", opt.server, "The plateau binary (runs `plateau serve`)");
  app.add_option("--store", opt.stores,
                 "sqlite (default) or postgresql (a throw-away PostgreSQL 15 cluster); "
                 "repeat it to run both, one after the other")
      ->check(CLI::IsMember({"sqlite", "postgresql"}));
  app.add_option("--nodes", opt.nodes, "Nodes on the PostgreSQL database (games spread over them)")
      ->check(CLI::Range(1, 8))
      ->capture_default_str();
  app.add_option("--threads", opt.threads,
                 "I/O threads of each plateau serve (--threads; default: the server's own)")
      ->check(CLI::Range(1, 64));
  app.add_flag("--spread", opt.load.spread,
               "With --nodes: the two players of a game on different nodes (needs the node "
               "link's forwarding)");
  app.add_option("--kill-after", opt.kill_after,
                 "With --nodes: SIGKILL the last node this many seconds into the measurement "
                 "and time the takeover of its tables")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--rejoin", opt.rejoin,
               "With --kill-after: the killed node's robots resume on their tables' new owners "
               "(resume TOKEN, the unanswered move again with its #n) and play on");
  app.add_option("--pg-fsync", opt.pg_fsync, "fsync of the PostgreSQL cluster (on to measure)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--pg-statements", opt.pg_statements,
                 "With --store postgresql: report this many statements that took the database "
                 "the most time (pg_stat_statements)")
      ->check(CLI::Range(0, 100));
  app.add_flag("--echo", opt.echo,
               "Also run against a bare Boost.Asio line-echo server (alone without --server)");
  app.add_option("--echo-threads", opt.echo_threads, "I/O threads of the echo server")
      ->capture_default_str();
  app.add_option("--connections", load.connections, "Client connections")->capture_default_str();
  app.add_option("--games", load.games, "Games played at once (2 connections each)")
      ->capture_default_str();
  app.add_option("--seconds", load.seconds, "Measured time")->capture_default_str();
  app.add_option("--game", load.game, "Game spec")->capture_default_str();
  app.add_option("--rate", load.rate, "Offered moves/s in all (0: as fast as possible)")
      ->capture_default_str();
  app.add_option("--seed", load.seed, "Seed of the move choices")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  signal(SIGPIPE, SIG_IGN);
  try {
    return run(opt);
  } catch (const std::exception& e) {
    std::cerr << "plateau_load: " << e.what() << "\n";
    return 2;
  }
}
