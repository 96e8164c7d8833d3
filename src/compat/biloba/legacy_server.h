#pragma once
// Plateau's server for biloba 0.9.3 clients on TCP 8000 (specs/biloba.md §11): the same
// messages, order and framing as the original, byte for byte, with the original's faults fixed
// (§11.7):
//   * a connection waiting for a click also watches its socket, so a client that quits while
//     waited on ('q' or end-of-file) ends the game instead of leaking it;
//   * JOIN seats are validated, and PRELJOIN on a full, started or killed game is refused;
//   * there is no global lock: every session is a coroutine on one strand, and nothing blocks
//     while a creator has not polled "READY?".
// Every relayed click is also fed to the click machine of biloba_clicks.h, so the server
// knows each game's turns and can hand a Plateau game record to the store when the game ends.
// Seats declared AI (type 2) in the player details are Plateau CPU seats played by the server
// (the original would have killed such a game); they send the minimal clicks of the bot's turn.
// The server writes "<dumpdir>/<id>-<name>.blb" dumps like `biloba-server LOG DUMPDIR`.
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "compat/biloba/blb.h"

// Boost 1.74's awaitable.hpp needs <utility> first (std::exchange).
// clang-format off
#include <utility>

#include <boost/asio.hpp>
// clang-format on

namespace plateau::biloba::net {

// A legacy game that has ended (every connection closed), as handed to on_finished.
// Names on the wire are Latin-1 bytes (the original client sends the machine's 8-bit text):
// `name` and `clicks.names` keep those bytes (dump file names, the .blb), `display_name`,
// `seat_names` and `record` hold them decoded into UTF-8 for the lobby, logs and records.
struct FinishedLegacyGame {
  int id = 0;
  std::string name;                     // the game's name as sent (Latin-1 bytes)
  std::string display_name;             // the same in UTF-8
  std::vector<std::string> seat_names;  // UTF-8
  BlbGame clicks;         // every relayed click, (−2, −2) for a quit (the server's .blb dump)
  std::string record;     // the Plateau record of the complete turns (core/record.h)
  std::string game_spec;  // the rules the turns follow, e.g. "biloba(players=2,...)"
  std::vector<std::string> moves;  // the complete turns in canonical notation (specs §7.2)
  bool finished = false;           // the rules ended the game (not a quit)
  bool click_limit = false;        // ended by LegacyServerOptions::max_clicks
};

// A legacy game whose seats are all filled, as handed to on_started (names as in
// FinishedLegacyGame).
struct StartedLegacyGame {
  int id = 0;
  std::string display_name;             // UTF-8
  std::vector<std::string> seat_names;  // UTF-8
  std::vector<bool> cpu;                // seats played by a Plateau CPU seat of this server
  std::string game_spec;                // the rules the turns follow (as FinishedLegacyGame's)
};

struct LegacyServerOptions {
  std::string address = "0.0.0.0";  // listening address
  unsigned short port = 8000;       // 0 = an ephemeral port (see LegacyServer::port())
  std::string dump_dir;             // "" = no .blb dumps
  std::string log_file;             // "" = no log; "-" = standard error
  // Read timeouts: the first command (10 s in the original), setup after NEWGAME/LISTGAME
  // (500 s), and between play commands (Plateau: 1 hour; the original's 500 s killed games
  // whose local player thought long).
  std::chrono::milliseconds new_timeout{10'000};
  std::chrono::milliseconds setup_timeout{500'000};
  std::chrono::milliseconds play_timeout{3'600'000};
  // The original sleeps 1 s after each "READY?" answer while players are missing.
  std::chrono::milliseconds ready_pause{1'000};
  // CPU seats: the bot (make_bot name) and the pause before each of its clicks (1 s in the
  // original's own AI).
  std::string cpu_bot = "classic";
  std::chrono::milliseconds cpu_delay{1'000};
  std::uint64_t cpu_seed = 1;
  // Where CPU seats think (the bot's choose_move): never the I/O strand, so that a slow level
  // stalls no connection. Required by LegacyServer (`plateau serve` passes its worker pool);
  // LegacyServerThread uses a thread of its own when unset.
  std::optional<boost::asio::any_io_executor> cpu_executor;
  // When > 0, a network seat still free this long after the game was published is taken by a
  // Plateau CPU seat, so an original client can play against Plateau's bots.
  std::chrono::milliseconds cpu_fill_after{0};
  // The id of the first game (the original: 1). `plateau serve` continues after the ids of the
  // dumps already in its data directory.
  int first_id = 1;
  // Clicks kept per game (quits included); a game that reaches it is ended like one a player
  // left (no result), so that a pair of clients cannot grow a game's history for ever.
  std::size_t max_clicks = 20'000;
  // Counts a new connection against the server's connection limits: returns the token to keep
  // while the connection is open, or nullptr to refuse it (closed at once). Unset: all admitted.
  std::function<std::shared_ptr<const void>(const std::string& address)> admit;
  // Called for each connection the port accepted and admitted (with its slot): true when it
  // took the socket to serve it elsewhere (plateau serve relays it to the node that hosts the
  // cluster's legacy games, legacy_relay.h); false to serve it here. Unset: all served here.
  std::function<bool(boost::asio::ip::tcp::socket& socket, std::shared_ptr<const void>& slot)>
      divert;
  // accept() failing for lack of descriptors waits this long before trying again.
  std::chrono::milliseconds accept_backoff{100};
  // Called (on the server's strand) when a game is removed; the store hook.
  std::function<void(const FinishedLegacyGame&)> on_finished;
  // Live hooks, all on the server's strand, in the order things happen (`plateau serve` mirrors
  // each game as a lobby table with them, legacy_lobby.h): every seat of game `id` is filled;
  // the replay completed its turn number `ply` (1, 2, ...; canonical notation, specs §7.2);
  // a talk-mode connection of seat `seat` said `text` (UTF-8). A game that never started is
  // reported by on_finished only.
  std::function<void(const StartedLegacyGame&)> on_started;
  std::function<void(int id, int ply, const std::string& move)> on_turn;
  std::function<void(int id, int seat, const std::string& text)> on_chat;
};

// A snapshot of one game for tests and status pages.
struct LegacyGameStatus {
  int id = 0;
  std::string name;
  int players = 0;
  bool started = false;
  bool killed = false;
  int connections = 0;  // game connections still open
  int clicks = 0;       // relayed clicks
  std::string board;    // the server's replay: the position string (§7.5) now
};

class LegacyServer {
 public:
  // Uses `executor` for every socket and timer (all work runs on one strand of it), and
  // options.cpu_executor for the CPU seats' thinking. Throws std::invalid_argument when
  // options.cpu_executor is unset.
  LegacyServer(boost::asio::any_io_executor executor, LegacyServerOptions options);
  ~LegacyServer();
  LegacyServer(const LegacyServer&) = delete;
  LegacyServer& operator=(const LegacyServer&) = delete;

  // Binds and starts accepting. Throws boost::system::system_error when the port is taken.
  void start();
  // Serves `socket` (one end of a local socket pair whose other end carries the bytes of a
  // client of `address` relayed from another node) as a connection accepted from `address`:
  // counted by options.admit like one. False (the socket closed) when admit refuses it.
  // Thread-safe; after stop() the socket is closed at once.
  bool adopt(boost::asio::local::stream_protocol::socket socket, const std::string& address);
  // Stops accepting and closes every connection (games are finalised as their sessions end).
  void stop();
  // After stop(), once no thread runs the executor any more: drops the sessions and games the
  // loop did not get to unwind (they and the server point at each other, so they would leak).
  void release_after_stop();
  // The bound port (after start()).
  unsigned short port() const { return port_; }

  // Thread-safe snapshot of the games (blocks until the strand answers; do not call on it).
  std::vector<LegacyGameStatus> games();
  // Thread-safe: a chat line from outside the game (`text` in UTF-8, sent in Latin-1, "?" for
  // other characters, cut to the wire's 254 bytes) for every talk-mode connection of game `id`.
  // The original client hides the lines of its own seat, so each connection gets the line as
  // from another seat than its own (the lowest); put the author's name in `text`. Nothing
  // happens if the game is gone or killed.
  void say(int id, std::string text);

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
  unsigned short port_ = 0;
};

// Runs a LegacyServer on its own io_context and thread (biloba-server, tests).
class LegacyServerThread {
 public:
  explicit LegacyServerThread(LegacyServerOptions options);
  ~LegacyServerThread();  // stops the server and joins the thread
  LegacyServer& server() { return *server_; }
  unsigned short port() const { return server_->port(); }

 private:
  boost::asio::io_context io_;
  // Keeps io_.run() going until the destructor stops it: games() posts to the loop and would
  // wait for ever on a loop that ran out of work.
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{
      io_.get_executor()};
  // The CPU seats' thread when the options name none. Stopped and joined after the loop's
  // thread, before the loop is destroyed (a bot still thinking posts its answer to the loop).
  boost::asio::thread_pool cpus_{1};
  std::unique_ptr<LegacyServer> server_;
  std::thread thread_;
};

}  // namespace plateau::biloba::net
