// plateau_load: N text clients playing M BohnDuell boards against `plateau serve` on loopback.
// Starts the server on free ports with a fresh data directory, logs every client in as a guest,
// pairs them into challenges and plays random legal moves (chosen through the core interface,
// so every move sent is legal) game after game for the given time. Reports moves/s, the latency
// from sending a move to its acknowledgement (p50/p99), the server's memory, and - after a
// graceful stop - compares every acknowledged move with the moves in plateau.db: lost and
// duplicated moves must both be 0. All clients share 127.0.0.1, so the server is started with
// --max-connections-per-address and --max-connections raised to the number of clients + 64.
//
// --echo runs the same clients, games and rate against a minimal Boost.Asio line-echo server
// (echo_server.h) instead: every line comes straight back to its sender, so a move's
// "acknowledgement" is its own echo. With --server as well, both run one after the other and a
// last line gives Plateau's moves/s and latency as ratios to the echo's (bare I/O).
//
//   plateau_load --server build/release/plateau --connections 1000 --games 500 --seconds 20
//   plateau_load --server build/release/plateau --echo --rate 2500 --seconds 15
#include <SQLiteCpp/SQLiteCpp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include "server/asio.h"
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "core/registry.h"
#include "core/state.h"
#include "core/text.h"
#include "echo_server.h"
#include "games/register.h"

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string server;
  int connections = 1000;
  int games = 500;
  double seconds = 20;
  std::string game = "bohnduell(supply=20)";
  double rate = 0;  // offered moves/s in all (think time between moves); 0: as fast as possible
  std::uint64_t seed = 1;
  bool echo = false;     // also (or, without --server, only) run against the echo server
  int echo_threads = 2;  // I/O threads of the echo server (plateau serve's default --threads)
};

std::uint16_t free_port() {
  asio::io_context io;
  tcp::acceptor a(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return a.local_endpoint().port();
}

long rss_kib(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  }
  return -1;
}

struct Bench;

struct Conn : std::enable_shared_from_this<Conn> {
  Conn(Bench& b, asio::io_context& io, int index) : bench(b), socket(io), index(index) {}
  void start(const tcp::endpoint& ep);
  void read();
  void send(std::string line);
  void on_line(const std::string& line);

  Bench& bench;
  tcp::socket socket;
  asio::streambuf buf;
  std::deque<std::string> out;
  bool writing = false;
  int index;
  std::string name;
  int game = -1;  // index of the pair game, -1 for idle connections
};

struct PairGame {
  int a = -1, b = -1;  // connections: a challenges, a is seat 1
  int board = 0;
  std::unique_ptr<plateau::State> state;
  bool pending = false;
  int expected_ply = 0;
  std::string expected_move;
  Clock::time_point sent;
  std::unique_ptr<asio::steady_timer> think;
};

struct Bench {
  Options opt;
  asio::io_context io;
  std::vector<std::shared_ptr<Conn>> conns;
  std::vector<PairGame> games;
  std::shared_ptr<const plateau::Game> game;
  std::mt19937_64 rng;
  tcp::endpoint endpoint;
  int logged_in = 0;
  int connected = 0;
  bool measuring = false;
  bool stopping = false;
  Clock::time_point start, end;
  std::vector<double> latencies_ms;
  long moves = 0;
  long games_finished = 0;
  long errors = 0;
  std::map<int, std::vector<std::string>> acked;  // board -> moves acknowledged, by ply
  asio::steady_timer timer{io};
  std::string game_name;
  std::string game_options;
  bool echo = false;     // the peer is the echo server: replies are our own lines
  int next_board = 101;  // echo: boards are numbered here, as the server would

  void logged(Conn&) {
    if (++logged_in < opt.connections) return;
    std::cout << "all " << opt.connections << " connections logged in; starting " << opt.games
              << " games\n"
              << std::flush;
    start = Clock::now();
    measuring = true;
    for (std::size_t g = 0; g < games.size(); ++g) challenge(static_cast<int>(g));
    timer.expires_after(std::chrono::milliseconds(static_cast<long>(opt.seconds * 1000)));
    timer.async_wait([this](boost::system::error_code) {
      stopping = true;
      end = Clock::now();
      check_done();
    });
  }

  void challenge(int g) {
    PairGame& pg = games[g];
    std::string opts;
    if (!game_options.empty()) {
      for (const auto& part : plateau::split(game_options, ',')) opts += " -" + std::string(part);
    }
    conns[pg.a]->send(game_name + " challenge" + opts + " " + conns[pg.a]->name + " " +
                      conns[pg.b]->name);
  }

  void next(int g) {
    PairGame& pg = games[g];
    if (pg.state->is_terminal()) {
      ++games_finished;
      pg.board = 0;
      if (!stopping) challenge(g);
      check_done();
      return;
    }
    if (stopping) {
      check_done();
      return;
    }
    if (opt.rate > 0) {
      // Players think: on average games / rate seconds between moves (uniform 0.5x..1.5x).
      const double mean = static_cast<double>(opt.games) / opt.rate;
      const double t = mean * (0.5 + static_cast<double>(rng() % 1000) / 1000.0);
      if (!pg.think) pg.think = std::make_unique<asio::steady_timer>(io);
      pg.pending = true;  // a move is due: the run ends once none is
      pg.expected_ply = -1;
      pg.think->expires_after(std::chrono::microseconds(static_cast<long>(t * 1e6)));
      pg.think->async_wait([this, g](boost::system::error_code) { send_move(g); });
      return;
    }
    send_move(g);
  }

  void send_move(int g) {
    PairGame& pg = games[g];
    if (stopping) {
      pg.pending = false;
      check_done();
      return;
    }
    auto legal = pg.state->legal_moves();
    const plateau::Move& m = legal[rng() % legal.size()];
    pg.expected_move = pg.state->move_to_string(m);
    pg.expected_ply = pg.state->ply() + 1;
    pg.pending = true;
    pg.sent = Clock::now();
    const int mover = pg.state->current_seat() == 0 ? pg.a : pg.b;
    conns[mover]->send("move " + std::to_string(pg.board) + " " + pg.expected_move + "#" +
                       std::to_string(pg.expected_ply));
  }

  void on_new_board(Conn& c, int board) {
    if (c.game < 0 || games[c.game].a != c.index) return;
    PairGame& pg = games[c.game];
    pg.board = board;
    pg.state = game->initial_state();
    acked[board];
    next(c.game);
  }

  void on_move(Conn& c, int board, int ply, const std::string& move) {
    if (c.game < 0) return;
    PairGame& pg = games[c.game];
    if (!pg.pending || pg.board != board || ply != pg.expected_ply) return;
    const int mover = pg.state->current_seat() == 0 ? pg.a : pg.b;
    if (mover != c.index) return;
    if (move != pg.expected_move) {
      ++errors;
      std::cerr << "board " << board << ": acknowledged " << move << ", sent " << pg.expected_move
                << "\n";
    }
    pg.pending = false;
    latencies_ms.push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - pg.sent).count());
    ++moves;
    acked[board].push_back(move);
    pg.state->apply(pg.state->parse_move(move));
    next(c.game);
  }

  void check_done() {
    if (!stopping) return;
    for (const auto& pg : games) {
      if (pg.pending) return;
    }
    for (auto& c : conns) {
      boost::system::error_code ec;
      c->socket.close(ec);
    }
    io.stop();
  }
};

void Conn::start(const tcp::endpoint& ep) {
  socket.async_connect(ep, [self = shared_from_this()](boost::system::error_code ec) {
    if (ec) {
      std::cerr << "connect failed: " << ec.message() << "\n";
      self->bench.io.stop();
      return;
    }
    self->socket.set_option(tcp::no_delay(true));
    self->send("guest");
    self->read();
  });
}

void Conn::read() {
  asio::async_read_until(socket, buf, '\n',
                         [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
                           if (ec) return;
                           std::string line(asio::buffers_begin(self->buf.data()),
                                            asio::buffers_begin(self->buf.data()) + n - 1);
                           self->buf.consume(n);
                           self->on_line(line);
                           self->read();
                         });
}

void Conn::send(std::string line) {
  out.push_back(std::move(line) + "\n");
  if (writing) return;
  writing = true;
  auto self = shared_from_this();
  auto write_next = std::make_shared<std::function<void()>>();
  *write_next = [self, write_next] {
    if (self->out.empty()) {
      self->writing = false;
      return;
    }
    asio::async_write(self->socket, asio::buffer(self->out.front()),
                      [self, write_next](boost::system::error_code ec, std::size_t) {
                        if (ec) return;
                        self->out.pop_front();
                        (*write_next)();
                      });
  };
  (*write_next)();
}

void Conn::on_line(const std::string& line) {
  static const std::regex kMove(R"(^(\w+) (\d+): (\d+)\. \S+ \S+ (\S+)$)");
  if (bench.echo) {
    // The same dialogue, each line answered by itself: the login, the challenge, the moves.
    static const std::regex kEchoedMove(R"(^move (\d+) (\S+)#(\d+)$)");
    std::smatch m;
    if (line == "guest") {
      name = "guest" + std::to_string(index + 1);
      bench.logged(*this);
    } else if (line.rfind(bench.game_name + " challenge", 0) == 0) {
      bench.on_new_board(*this, bench.next_board++);
    } else if (std::regex_match(line, m, kEchoedMove)) {
      bench.on_move(*this, std::stoi(m[1]), std::stoi(m[3]), m[2]);
    } else {
      ++bench.errors;
      std::cerr << "echo: unexpected line " << line << "\n";
    }
    return;
  }
  if (line.rfind("Hello, guest", 0) == 0) {
    name = line.substr(7, line.find(' ', 7) - 7);
    bench.logged(*this);
    return;
  }
  if (line.rfind("error: ", 0) == 0) {
    // Every move sent is legal and in turn: any error is a failure of the run.
    ++bench.errors;
    std::cerr << name << ": " << line << "\n";
    bench.end = Clock::now();
    bench.io.stop();
    return;
  }
  if (line.rfind("New ", 0) == 0 && line.find(" Board ") != std::string::npos) {
    bench.on_new_board(*this, std::stoi(line.substr(line.rfind(' ') + 1)));
    return;
  }
  if (line.size() > 10 && line.rfind(bench.game_name + " ", 0) == 0) {
    std::smatch m;
    if (std::regex_match(line, m, kMove)) {
      bench.on_move(*this, std::stoi(m[2]), std::stoi(m[3]), m[4]);
    }
  }
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

// What one run measured.
struct RunResult {
  long moves = 0;
  double moves_per_s = 0;
  double p50 = 0, p99 = 0, max = 0;  // ms
  bool ok = false;                   // no error, nothing lost or duplicated
};

// Starts the peer in a child process: `plateau serve` (exec) or the echo server (fork only).
pid_t start_peer(const Options& opt, bool echo, const std::filesystem::path& dir,
                 std::uint16_t text_port, const std::string& log) {
  const std::uint16_t http_port = free_port();
  const std::uint16_t biloba_port = free_port();
  pid_t pid = ::fork();
  if (pid != 0) return pid;
  FILE* f = std::freopen(log.c_str(), "w", stderr);
  (void)f;
  if (echo) {
    try {
      plateau::bench::run_echo_server("127.0.0.1", text_port, opt.echo_threads);
      std::_Exit(0);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "echo server: %s\n", e.what());
      std::_Exit(1);
    }
  }
  std::string data = (dir / "data").string();
  std::string tp = std::to_string(text_port), hp = std::to_string(http_port),
              bp = std::to_string(biloba_port);
  // Every client comes from 127.0.0.1: raise the per-address connection cap (default 32)
  // and the total cap above the number of clients (with room for the probes).
  const std::string cap = std::to_string(opt.connections + 64);
  ::execl(opt.server.c_str(), opt.server.c_str(), "serve", "--data-dir", data.c_str(), "--bind",
          "127.0.0.1", "--text-port", tp.c_str(), "--http-port", hp.c_str(), "--biloba-port",
          bp.c_str(), "--log-level", "warn", "--rate", "100000", "--max-connections-per-address",
          cap.c_str(), "--max-connections", cap.c_str(), static_cast<char*>(nullptr));
  std::perror("exec");
  std::_Exit(127);
}

// Every acknowledged move must be in the store exactly once, in order.
void compare_with_store(const Bench& bench, const std::filesystem::path& db_path, long& stored,
                        long& lost, long& duplicated) {
  SQLite::Database db(db_path.string(), SQLite::OPEN_READONLY);
  std::map<int, std::vector<std::string>> in_db;
  SQLite::Statement q(db,
                      "SELECT t.number, m.move FROM moves m JOIN tables t ON t.id = m.table_id "
                      "WHERE t.game = ? ORDER BY t.number, m.ply");
  q.bind(1, bench.game_name);
  while (q.executeStep()) {
    in_db[q.getColumn(0).getInt()].push_back(q.getColumn(1).getString());
    ++stored;
  }
  for (const auto& [board, moves] : bench.acked) {
    const auto& got = in_db[board];
    std::size_t same = 0;
    while (same < moves.size() && same < got.size() && moves[same] == got[same]) ++same;
    lost += static_cast<long>(moves.size() - same);
    duplicated += static_cast<long>(got.size() > moves.size() ? got.size() - moves.size() : 0);
  }
}

RunResult run_once(const Options& opt, bool echo) {
  Bench bench;
  bench.opt = opt;
  bench.echo = echo;
  bench.rng.seed(opt.seed);
  bench.game = plateau::make_game(opt.game);
  bench.game_name = bench.game->name();
  bench.game_options = bench.game->options_string();
  const auto dir =
      std::filesystem::temp_directory_path() / ("plateau-load-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::uint16_t text_port = free_port();
  const std::string log = (dir / "server.log").string();
  const pid_t pid = start_peer(opt, echo, dir, text_port, log);
  bench.endpoint = tcp::endpoint(asio::ip::make_address("127.0.0.1"), text_port);
  // Wait for the text port.
  for (int i = 0;; ++i) {
    asio::io_context io;
    tcp::socket s(io);
    boost::system::error_code ec;
    s.connect(bench.endpoint, ec);
    if (!ec) break;
    if (i > 200) {
      std::cerr << (echo ? "echo server" : "server") << " did not start; see " << log << "\n";
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
      return {};
    }
    ::usleep(50000);
  }
  for (int i = 0; i < opt.connections; ++i) {
    bench.conns.push_back(std::make_shared<Conn>(bench, bench.io, i));
  }
  for (int g = 0; g < opt.games; ++g) {
    PairGame pg;
    pg.a = 2 * g;
    pg.b = 2 * g + 1;
    bench.conns[pg.a]->game = g;
    bench.conns[pg.b]->game = g;
    bench.games.push_back(std::move(pg));
  }
  for (auto& c : bench.conns) c->start(bench.endpoint);
  const auto wall = Clock::now();
  bench.io.run();
  const long vm_hwm = rss_kib(pid, "VmHWM");
  const long vm_rss = rss_kib(pid, "VmRSS");
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);

  const double secs = std::chrono::duration<double>(bench.end - bench.start).count();
  long lost = 0, duplicated = 0, stored = 0;
  if (!echo) compare_with_store(bench, dir / "data" / "plateau.db", stored, lost, duplicated);
  std::cout << (echo ? "echo server (bare I/O): " : "plateau serve: ") << "connections "
            << opt.connections << ", games " << opt.games << " (" << opt.game << "), offered "
            << (opt.rate > 0 ? std::to_string(static_cast<long>(opt.rate)) + " moves/s"
                             : std::string("as fast as possible"))
            << ", " << secs << " s measured ("
            << std::chrono::duration<double>(Clock::now() - wall).count() << " s in all)\n";
  RunResult r;
  r.moves = bench.moves;
  r.moves_per_s = secs > 0 ? static_cast<double>(bench.moves) / secs : 0;
  r.p50 = percentile(bench.latencies_ms, 0.5);
  r.p99 = percentile(bench.latencies_ms, 0.99);
  r.max = percentile(bench.latencies_ms, 1.0);
  std::cout << "moves " << bench.moves << ", " << static_cast<long>(r.moves_per_s)
            << " moves/s; games finished " << bench.games_finished << "\n";
  char buf[200];
  std::snprintf(buf, sizeof buf, "latency p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", r.p50, r.p99,
                r.max);
  std::cout << buf;
  std::cout << "server memory: peak " << vm_hwm / 1024 << " MiB, at the end " << vm_rss / 1024
            << " MiB\n";
  std::cout << "errors " << bench.errors;
  if (echo) {
    std::cout << "; nothing stored (echo)";
  } else {
    std::cout << "; stored moves " << stored << "; lost " << lost << ", duplicated " << duplicated;
  }
  std::cout << "; server exit status " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1) << "\n"
            << std::flush;
  std::filesystem::remove_all(dir);
  r.ok = lost == 0 && duplicated == 0 && bench.errors == 0 && bench.moves > 0;
  return r;
}

int run(const Options& opt) {
  plateau::register_builtin_games();
  if (opt.connections < 2 * opt.games) {
    std::cerr << "need at least 2 connections per game\n";
    return 2;
  }
  if (opt.server.empty() && !opt.echo) {
    std::cerr << "give --server (plateau serve), --echo (the echo server), or both\n";
    return 2;
  }
  RunResult plateau_run, echo_run;
  if (!opt.server.empty()) plateau_run = run_once(opt, false);
  if (opt.echo) echo_run = run_once(opt, true);
  if (!opt.server.empty() && opt.echo && echo_run.moves_per_s > 0 && echo_run.p50 > 0 &&
      echo_run.p99 > 0) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "plateau / echo: moves/s %.3f, p50 %.1fx, p99 %.1fx (%.2f ms vs %.2f ms)\n",
                  plateau_run.moves_per_s / echo_run.moves_per_s, plateau_run.p50 / echo_run.p50,
                  plateau_run.p99 / echo_run.p99, plateau_run.p99, echo_run.p99);
    std::cout << buf;
  }
  const bool ok = (opt.server.empty() || plateau_run.ok) && (!opt.echo || echo_run.ok);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  CLI::App app{"Load test of plateau serve: N text clients playing M games on loopback",
               "plateau_load"};
  app.add_option("--server", opt.server, "The plateau binary (runs `plateau serve`)");
  app.add_flag("--echo", opt.echo,
               "Also run against a bare Boost.Asio line-echo server (alone without --server)");
  app.add_option("--echo-threads", opt.echo_threads, "I/O threads of the echo server")
      ->capture_default_str();
  app.add_option("--connections", opt.connections, "Client connections")->capture_default_str();
  app.add_option("--games", opt.games, "Games played at once (2 connections each)")
      ->capture_default_str();
  app.add_option("--seconds", opt.seconds, "Measured time")->capture_default_str();
  app.add_option("--game", opt.game, "Game spec")->capture_default_str();
  app.add_option("--rate", opt.rate, "Offered moves/s in all (0: as fast as possible)")
      ->capture_default_str();
  app.add_option("--seed", opt.seed, "Seed of the move choices")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  signal(SIGPIPE, SIG_IGN);
  try {
    return run(opt);
  } catch (const std::exception& e) {
    std::cerr << "plateau_load: " << e.what() << "\n";
    return 2;
  }
}
