// Over 600 lines: the biloba 0.9.3 server is one coroutine state machine per connection and per
// game (docs/BILOBA_NETWORK.md); issue 13 replaces it with a transport that drives ordinary
// tables, so it is left whole until then rather than split twice.
#include "compat/biloba/legacy_server.h"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <optional>
#include <set>

#include <sys/socket.h>

#include <cerrno>

#include "core/record.h"
#include "core/text.h"
#include "server/rate_limited_log.h"
#include "games/biloba/biloba_clicks.h"
#include "games/biloba/biloba_notation.h"
#include "compat/biloba/click_player.h"
#include "compat/biloba/wire.h"

namespace plateau::biloba::net {

namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using Strand = asio::strand<asio::any_io_executor>;

namespace {

constexpr std::size_t kMaxChatLines = 10'000;

struct Click {
  int seat;
  std::int32_t x;
  std::int32_t y;
};

class Session;
class CpuSeat;

// One legacy game: the original's shared game structure, owned by the directory and by the
// sessions in it. Only touched on the server's strand.
struct Game {
  int id = 0;
  std::string name;
  int players = 0;
  std::vector<SeatType> types;
  std::vector<std::string> names;
  std::vector<bool> filled;          // a name is known: creator's seats, joined and CPU seats
  std::vector<Session*> reserved;    // PRELJOIN reservation per seat
  int last_joined = 0;
  bool started = false;
  bool killed = false;
  bool finalized = false;  // out of the directory: CPU seats stop and release the game
  Clock::time_point published;
  std::vector<Click> moves;
  std::set<Session*> members;  // open game connections
  std::vector<std::shared_ptr<CpuSeat>> cpus;
  std::vector<std::pair<int, std::string>> chat;
  std::set<Session*> talkers;
  // The server's replay of the click stream (stops at the first click it cannot place).
  Position start;
  std::optional<ClickMachine> machine;
  bool replay_broken = false;
  bool click_limit = false;  // ended by LegacyServerOptions::max_clicks

  int missing() const {
    int n = 0;
    for (bool f : filled) n += f ? 0 : 1;
    return n;
  }
  // The 1-based spot PRELJOIN offers: the first free network seat, or -1.
  int free_spot() const {
    for (int s = 0; s < players; ++s) {
      if (types[s] == SeatType::kNetwork && !filled[s] && reserved[s] == nullptr) return s + 1;
    }
    return -1;
  }
};

}  // namespace

struct LegacyServer::Impl : std::enable_shared_from_this<LegacyServer::Impl> {
  Impl(asio::any_io_executor ex, LegacyServerOptions opts)
      : strand(asio::make_strand(ex)), acceptor(strand), options(std::move(opts)) {
    next_id = std::max(1, options.first_id);
    if (options.log_file == "-") {
      log_stream = &std::cerr;
    } else if (!options.log_file.empty()) {
      log_file.open(options.log_file, std::ios::app);
      if (!log_file) throw std::runtime_error("can't open " + options.log_file);
      log_stream = &log_file;
    }
  }

  void log(const std::string& line) {
    if (log_stream) *log_stream << line << std::endl;
  }

  awaitable<void> accept_loop();
  void notify(Game& game);
  void finalize(const std::shared_ptr<Game>& game);
  // Records a relayed click, feeds it to the replay, and ends the game at max_clicks.
  void append(Game& game, Click click);
  void replay(Game& game, Click click);
  void maybe_cpu_fill(const std::shared_ptr<Game>& game);

  Strand strand;
  tcp::acceptor acceptor;
  LegacyServerOptions options;
  std::ofstream log_file;
  std::ostream* log_stream = nullptr;
  int next_id = 1;
  std::map<int, std::shared_ptr<Game>> games;
  std::set<std::shared_ptr<Session>> sessions;
  bool stopped = false;
};

namespace {

using Impl = LegacyServer::Impl;

// A connection: the game connection state machine of §11.2 (or talk mode), as one coroutine.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(std::shared_ptr<Impl> server, tcp::socket socket, std::shared_ptr<const void> slot)
      : server_(std::move(server)),
        slot_(std::move(slot)),
        socket_(std::move(socket)),
        wake_(server_->strand),
        watchdog_(server_->strand) {}

  void start() {
    auto self = shared_from_this();
    asio::co_spawn(server_->strand, [self]() { return self->watch(); }, asio::detached);
    asio::co_spawn(server_->strand, [self]() { return self->run(); }, asio::detached);
  }

  void wake() { wake_.cancel(); }
  void close() {
    boost::system::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    socket_.close(ec);
    watchdog_.cancel();
    wake_.cancel();
  }
  std::size_t cursor = 0;  // moves delivered (or owned) so far
  std::size_t chat_cursor = 0;
  std::vector<bool> owns;  // seats this connection plays

  // True when a move not from this connection is waiting for it (own moves are skipped).
  bool has_pending(const Game& g) { return !has_received(g, g.moves.size()); }
  // True when the first n moves have been delivered to (or were sent by) this connection.
  bool has_received(const Game& g, std::size_t n) {
    while (cursor < g.moves.size() && owns[g.moves[cursor].seat]) ++cursor;
    return cursor >= n;
  }

 private:
  awaitable<void> watch();
  awaitable<void> run();
  awaitable<void> setup_new();
  awaitable<bool> setup_list();
  awaitable<void> setup_join();
  awaitable<void> wait_players();
  awaitable<void> play();
  awaitable<bool> receive();
  void watch_readable(std::uint64_t wait_id);
  awaitable<bool> send_move(bool quit);
  awaitable<void> talk();
  awaitable<void> talk_reader();
  void kill();
  void release_reservation();

  // I/O with deadlines (the watchdog closes the socket when one passes).
  void deadline(std::chrono::milliseconds d) { deadline_ = Clock::now() + d; wake_watchdog(); }
  void no_deadline() { deadline_ = Clock::time_point::max(); }
  void wake_watchdog() { watchdog_.cancel(); }
  awaitable<Bytes> read_message();
  awaitable<std::string> read_string() { co_return decode_string(co_await read_message()); }
  awaitable<std::int32_t> read_int() { co_return decode_int(co_await read_message()); }
  awaitable<void> send(const Bytes& bytes) {
    co_await asio::async_write(socket_, asio::buffer(bytes), use_awaitable);
  }
  awaitable<void> wait_wake() {
    wake_.expires_at(Clock::time_point::max());
    boost::system::error_code ec;
    co_await wake_.async_wait(asio::redirect_error(use_awaitable, ec));
  }
  awaitable<void> pause(std::chrono::milliseconds d) {
    asio::steady_timer t(server_->strand, d);
    boost::system::error_code ec;
    co_await t.async_wait(asio::redirect_error(use_awaitable, ec));
  }
  // True when every other connection has received the first n moves (a connection never
  // waits for itself: its own pending moves are read by its next 'r').
  bool others_received(const Game& g, std::size_t n) {
    for (Session* m : g.members) {
      if (m != this && !m->has_received(g, n)) return false;
    }
    return true;
  }
  void log(const std::string& s) { server_->log(s); }

  std::shared_ptr<Impl> server_;
  std::shared_ptr<const void> slot_;  // the connection's place in the server's limits
  tcp::socket socket_;
  asio::steady_timer wake_;
  asio::steady_timer watchdog_;
  Clock::time_point deadline_ = Clock::time_point::max();
  std::shared_ptr<Game> game_;      // the game this connection plays in
  std::shared_ptr<Game> reserved_;  // PRELJOIN reservation
  int reserved_seat_ = -1;
  int seat_ = 0;
  bool readable_ = false;
  // Which receive() the pending readiness wait belongs to: a wait that completes after its
  // receive() moved on (the strand runs its handler later) must not mark the next one readable,
  // or play() would read a command the client never sent and both sides would wait for ever.
  std::uint64_t readable_wait_ = 0;
  bool done_ = false;
};

// A Plateau CPU seat in a legacy game: reads the server's replay and appends its clicks.
class CpuSeat : public std::enable_shared_from_this<CpuSeat> {
 public:
  CpuSeat(std::shared_ptr<Impl> server, std::shared_ptr<Game> game, int seat)
      : server_(std::move(server)), game_(std::move(game)), seat_(seat), wake_(server_->strand) {}
  void start() {
    auto self = shared_from_this();
    asio::co_spawn(server_->strand, [self]() { return self->run(); }, asio::detached);
  }
  void wake() { wake_.cancel(); }

 private:
  bool my_turn() const {
    const Game& g = *game_;
    if (g.killed || !g.started || !g.machine || g.replay_broken || g.machine->over()) return false;
    if (g.machine->asked() != seat_ || stuck_turn_ == g.machine->turns().size()) return false;
    for (Session* m : g.members) {
      if (m->has_pending(g)) return false;
    }
    return true;
  }
  awaitable<void> run();

  std::shared_ptr<Impl> server_;
  std::shared_ptr<Game> game_;
  int seat_;
  asio::steady_timer wake_;
  std::size_t stuck_turn_ = static_cast<std::size_t>(-1);
};

awaitable<void> CpuSeat::run() {
  std::optional<ClickPlayer> player;
  try {
    player.emplace(server_->options.cpu_bot,
                   server_->options.cpu_seed + static_cast<std::uint64_t>(game_->id) * 7 + seat_,
                   game_->start);
  } catch (const std::exception& e) {
    server_->log("cpu seat: " + std::string(e.what()));
    co_return;
  }
  Game& g = *game_;
  while (!g.killed && !g.finalized && !server_->stopped) {
    if (!my_turn()) {
      wake_.expires_at(Clock::time_point::max());
      boost::system::error_code ec;
      co_await wake_.async_wait(asio::redirect_error(use_awaitable, ec));
      continue;
    }
    if (server_->options.cpu_delay.count() > 0) {
      asio::steady_timer t(server_->strand, server_->options.cpu_delay);
      boost::system::error_code ec;
      co_await t.async_wait(asio::redirect_error(use_awaitable, ec));
      if (!my_turn()) continue;
    }
    const int square = player->next_click(*g.machine);
    if (square < 0) {  // no legal move: the original waits for ever; so do we (§3.4)
      stuck_turn_ = g.machine->turns().size();
      server_->log("game " + std::to_string(g.id) + ": cpu seat " + std::to_string(seat_) +
                   " has no legal move");
      continue;
    }
    server_->append(g, Click{seat_, x_of(square), y_of(square)});
    server_->notify(g);
  }
}

// ---------------------------------------------------------------------------------------------
// Session

awaitable<void> Session::watch() {
  // The watchdog of the Asio timeout examples: close the socket once the deadline passes.
  auto self = shared_from_this();
  while (socket_.is_open()) {
    if (deadline_ <= Clock::now()) {
      log("connection timed out");
      boost::system::error_code ec;
      socket_.close(ec);
      wake_.cancel();
      co_return;
    }
    watchdog_.expires_at(deadline_);
    boost::system::error_code ec;
    co_await watchdog_.async_wait(asio::redirect_error(use_awaitable, ec));
  }
}

awaitable<Bytes> Session::read_message() {
  std::uint8_t len = 0;
  co_await asio::async_read(socket_, asio::buffer(&len, 1), use_awaitable);
  Bytes payload(len);
  if (len > 0) co_await asio::async_read(socket_, asio::buffer(payload), use_awaitable);
  co_return payload;
}

awaitable<void> Session::run() {
  auto self = shared_from_this();
  try {
    log("New connection");
    deadline(server_->options.new_timeout);
    const std::string command = co_await read_string();
    if (command == "NEWGAME") {
      co_await setup_new();
    } else if (command == "LISTGAME") {
      if (co_await setup_list()) co_await setup_join();
    } else if (command == "TALK_MODE") {
      co_await talk();
    } else {
      log("protocol error (got " + command + ")");
    }
    if (game_ && !done_) {
      co_await wait_players();
      if (game_ && game_->started && !game_->killed) co_await play();
    }
  } catch (const std::exception& e) {
    log(std::string("connection ended: ") + e.what());
  }
  kill();
}

awaitable<void> Session::setup_new() {
  deadline(server_->options.setup_timeout);
  Bytes out;
  put_string(out, "OK");
  co_await send(out);
  const std::string name = clip(co_await read_string());
  const int id = server_->next_id++;
  log(" > game name '" + name + "'");
  out.clear();
  put_int(out, id);
  co_await send(out);
  const Bytes raw = co_await read_message();
  std::vector<SeatDetail> details;
  bool bad_details = false;
  try {
    details = decode_details(raw);
  } catch (const ProtocolError& e) {
    log(std::string("   ") + e.what());
    bad_details = true;
  }
  if (bad_details) {
    out.clear();
    put_string(out, "ERROR");
    co_await send(out);
    done_ = true;
    co_return;
  }
  auto g = std::make_shared<Game>();
  g->id = id;
  g->name = name;
  g->players = static_cast<int>(details.size());
  int remote_seats = 0;  // network seats, and Plateau CPU seats (played by this server)
  for (const SeatDetail& d : details) {
    g->types.push_back(d.type);
    const bool network = d.type == SeatType::kNetwork;
    remote_seats += network || d.type == SeatType::kAi ? 1 : 0;
    g->names.push_back(network ? std::string() : d.name);
    g->filled.push_back(!network);
    g->reserved.push_back(nullptr);
  }
  // A game needs a seat played elsewhere; Plateau also needs 2..4 seats to run the rules.
  if (remote_seats == 0 || g->players < 2) {
    log("   ERROR: could not get a spot for another player");
    out.clear();
    put_string(out, "ERROR");
    co_await send(out);
    done_ = true;
    co_return;
  }
  out.clear();
  put_string(out, "READY");
  co_await send(out);
  g->start = start_position(g->players);
  g->machine.emplace(g->start, false);
  g->published = Clock::now();
  seat_ = 0;
  owns.assign(g->players, false);
  for (int s = 0; s < g->players; ++s) {
    owns[s] = g->types[s] == SeatType::kLocal || g->types[s] == SeatType::kReplay;
  }
  owns[0] = true;
  g->members.insert(this);
  for (int s = 0; s < g->players; ++s) {
    if (g->types[s] == SeatType::kAi) {
      if (g->names[s].empty()) g->names[s] = "CPU";
      auto cpu = std::make_shared<CpuSeat>(server_, g, s);
      g->cpus.push_back(cpu);
      cpu->start();
    }
  }
  server_->games[id] = g;
  game_ = g;
  log("   < game " + name + " (" + std::to_string(id) + ") fully set up");
  server_->maybe_cpu_fill(g);
}

awaitable<bool> Session::setup_list() {
  deadline(server_->options.setup_timeout);
  Bytes out;
  put_string(out, "NUMP");
  co_await send(out);
  const int nump = co_await read_int();
  if (nump < 1 || nump > 4) {
    log("   wrong number of players");
    co_return false;
  }
  log(" > requested games with " + std::to_string(nump) + " players");
  std::vector<std::shared_ptr<Game>> listed;
  for (auto& [id, g] : server_->games) {
    if (g->players == nump && !g->started && !g->killed && g->free_spot() > 0) {
      listed.push_back(g);
      if (static_cast<int>(listed.size()) == kMaxListedGames) break;
    }
  }
  out.clear();
  put_int(out, static_cast<std::int32_t>(listed.size()));
  for (auto& g : listed) {
    put_int(out, g->id);
    put_string(out, g->name);
  }
  co_await send(out);
  while (true) {
    const std::string command = co_await read_string();
    if (command == "JOIN") co_return true;
    if (command != "PRELJOIN") {
      log("protocol error (got " + command + ")");
      co_return false;
    }
    const int id = co_await read_int();
    release_reservation();
    auto it = server_->games.find(id);
    // Plateau refuses full, started and killed games too (the original offered spot −1).
    if (it == server_->games.end() || it->second->started || it->second->killed ||
        it->second->free_spot() < 0) {
      log("   game " + std::to_string(id) + " does not exist or is full");
      out.clear();
      put_string(out, "ERROR1");
      co_await send(out);
      co_return false;
    }
    Game& g = *it->second;
    const int spot = g.free_spot();
    out.clear();
    put_string(out, "OK");
    for (int s = 0; s < g.players; ++s) put_string(out, g.filled[s] ? g.names[s] : "");
    put_int(out, spot);
    co_await send(out);
    // The game may have changed while we were sending: reserve only if still free.
    if (!g.killed && !g.filled[spot - 1] && g.reserved[spot - 1] == nullptr) {
      g.reserved[spot - 1] = this;
      reserved_ = it->second;
      reserved_seat_ = spot - 1;
    }
    log(" > pre-reserving game ID " + std::to_string(id));
  }
}

awaitable<void> Session::setup_join() {
  const int seat = co_await read_int();
  Bytes out;
  auto g = reserved_;
  // Validated (the original took any number): a free or self-reserved network seat of the
  // game reserved by PRELJOIN.
  const bool valid = g && !g->killed && !g->started && seat >= 0 && seat < g->players &&
                     g->types[seat] == SeatType::kNetwork && !g->filled[seat] &&
                     (g->reserved[seat] == nullptr || g->reserved[seat] == this);
  if (!valid) {
    log(" error: invalid JOIN seat " + std::to_string(seat));
    out.clear();
    put_string(out, "ERROR");
    co_await send(out);
    done_ = true;
    co_return;
  }
  release_reservation();
  g->reserved[seat] = this;  // held while we read the name
  reserved_ = g;
  reserved_seat_ = seat;
  put_string(out, "OK");
  co_await send(out);
  const std::string name = clip(co_await read_string());
  release_reservation();
  if (g->killed || g->filled[seat]) {
    done_ = true;
    co_return;
  }
  g->names[seat] = name;
  g->filled[seat] = true;
  g->last_joined = seat;
  seat_ = seat;
  owns.assign(g->players, false);
  owns[seat] = true;
  g->members.insert(this);
  game_ = g;
  log(" > player " + std::to_string(seat) + " is named " + name);
  server_->notify(*g);
}

awaitable<void> Session::wait_players() {
  Game& g = *game_;
  while (!g.killed) {
    deadline(server_->options.setup_timeout);
    const std::string command = co_await read_string();
    if (command != "READY?") {
      log("protocol error (got " + command + ")");
      co_return;
    }
    Bytes out;
    const int missing = g.missing();
    put_int(out, missing);
    put_int(out, g.last_joined);
    put_string(out, g.names[g.last_joined]);
    if (missing == 0) {
      if (!g.started) {
        g.started = true;
        log(" all players arrived on game " + std::to_string(g.id) + " (" + g.name + ")");
        server_->notify(g);
      }
      for (const std::string& name : g.names) put_string(out, name);
      co_await send(out);
      co_return;
    }
    co_await send(out);
    no_deadline();
    if (server_->options.ready_pause.count() > 0) co_await pause(server_->options.ready_pause);
  }
}

awaitable<void> Session::play() {
  Game& g = *game_;
  while (!g.killed) {
    deadline(server_->options.play_timeout);
    const Bytes message = co_await read_message();
    if (message.size() != 1) co_return;
    const char command = static_cast<char>(message[0]);
    bool go_on = false;
    if (command == 'r') {
      go_on = co_await receive();
    } else if (command == 'p' || command == 'q') {
      go_on = co_await send_move(command == 'q');
    } else {
      log("protocol error (play command " + std::to_string(message[0]) + ")");
    }
    if (!go_on) co_return;
  }
}

void Session::watch_readable(std::uint64_t wait_id) {
  auto self = shared_from_this();
  socket_.async_wait(tcp::socket::wait_read, [self, wait_id](boost::system::error_code ec) {
    if (ec == asio::error::operation_aborted || wait_id != self->readable_wait_) return;
    if (!ec) {
      // epoll readiness can be stale (bytes that an earlier read already consumed): only data
      // or an end of stream really waiting counts, otherwise watch again.
      char byte = 0;
      const auto n = ::recv(self->socket_.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
        self->watch_readable(wait_id);
        return;
      }
    }
    self->readable_ = true;
    self->wake_.cancel();
  });
}

awaitable<bool> Session::receive() {
  Game& g = *game_;
  const int waited = co_await read_int();
  log(" > game " + std::to_string(g.id) + ": player " + std::to_string(seat_) +
      " waiting for player " + std::to_string(waited) + " move");
  no_deadline();
  // Watch the socket while waiting: the original's blocked thread never read a 'q' sent now.
  readable_ = false;
  watch_readable(++readable_wait_);
  while (!g.killed && !has_pending(g) && !readable_ && socket_.is_open()) co_await wait_wake();
  if (!readable_) {
    boost::system::error_code ec;
    socket_.cancel(ec);
    ++readable_wait_;  // a completion already queued is stale now
  }
  Bytes out;
  if (has_pending(g)) {
    const Click& c = g.moves[cursor++];
    put_int(out, c.x);
    put_int(out, c.y);
    co_await send(out);
    server_->notify(g);  // the sender may be waiting for everyone to receive it
    co_return true;
  }
  if (g.killed) {
    put_int(out, kQuitCoord);
    put_int(out, kQuitCoord);
    co_await send(out);
    co_return false;
  }
  co_return readable_;  // the client spoke while waiting (a 'q'): read it in play()
}

awaitable<bool> Session::send_move(bool quit) {
  Game& g = *game_;
  const int seat = co_await read_int();
  std::int32_t x = kQuitCoord;
  std::int32_t y = kQuitCoord;
  if (!quit) {
    x = co_await read_int();
    y = co_await read_int();
  }
  if (seat < 0 || seat >= g.players || !owns[seat]) {
    log(" error: player " + std::to_string(seat_) + " sent a click for seat " +
        std::to_string(seat));
    co_return false;
  }
  const bool retry = x == kRetryCoord && y == kRetryCoord;
  const bool leave = x == kQuitCoord && y == kQuitCoord;
  if (!retry && !leave && (x < 0 || x > 8 || y < 0 || y > 8)) {
    log(" error: click (" + std::to_string(x) + ", " + std::to_string(y) + ") off the board");
    co_return false;
  }
  no_deadline();
  while (!g.killed && !others_received(g, g.moves.size())) co_await wait_wake();
  if (g.killed) co_return false;
  const std::size_t index = g.moves.size();
  if (!retry) {
    server_->append(g, Click{seat, x, y});
    log(" < game " + std::to_string(g.id) + ": player " + std::to_string(seat) +
        " sends move ID " + std::to_string(g.moves.size() - 1) + " (x " + std::to_string(x) +
        ", y " + std::to_string(y) + ")");
    server_->notify(g);
  }
  if (leave) co_return false;
  while (!retry && !g.killed && !others_received(g, index + 1) && socket_.is_open()) {
    co_await wait_wake();
  }
  co_return !g.killed;
}

awaitable<void> Session::talk() {
  deadline(server_->options.setup_timeout);
  const int id = co_await read_int();
  const int seat = co_await read_int();
  auto it = server_->games.find(id);
  if (it == server_->games.end() || it->second->killed || seat < 0 ||
      seat >= it->second->players) {
    log(" error: Invalid game id " + std::to_string(id) + ".");
    done_ = true;
    co_return;
  }
  auto g = it->second;
  seat_ = seat;
  Bytes out;
  put_string(out, "OK");
  co_await send(out);
  log(" entered talk mode for player " + std::to_string(seat) + " on game " + std::to_string(id) +
      ".");
  g->talkers.insert(this);
  auto self = shared_from_this();
  asio::co_spawn(server_->strand, [self]() { return self->talk_reader(); }, asio::detached);
  no_deadline();
  try {
    while (!g->killed && socket_.is_open()) {
      if (chat_cursor < g->chat.size()) {
        const auto& [from, text] = g->chat[chat_cursor++];
        out.clear();
        put_int(out, from);
        put_string(out, text);
        co_await send(out);
        continue;
      }
      co_await wait_wake();
    }
  } catch (const std::exception&) {
  }
  g->talkers.erase(this);
  done_ = true;
  close();
}

awaitable<void> Session::talk_reader() {
  auto self = shared_from_this();
  auto it = server_->games.end();
  try {
    while (socket_.is_open()) {
      const std::string text = co_await read_string();
      it = server_->games.end();
      for (auto& [id, g] : server_->games) {
        if (!g->talkers.count(this)) continue;
        if (g->chat.size() < kMaxChatLines) g->chat.emplace_back(seat_, text);
        log(" received message '" + text + "' from player " + std::to_string(seat_) + ".");
        for (Session* t : g->talkers) t->wake();
      }
    }
  } catch (const std::exception&) {
  }
  close();
}

void Session::release_reservation() {
  if (reserved_ && reserved_seat_ >= 0 && reserved_->reserved[reserved_seat_] == this) {
    reserved_->reserved[reserved_seat_] = nullptr;
  }
  reserved_.reset();
  reserved_seat_ = -1;
}

void Session::kill() {
  release_reservation();
  close();
  if (game_) {
    auto g = std::move(game_);
    if (g->members.erase(this)) {
      if (!g->killed) log("killing game " + std::to_string(g->id) + " (" +
                          std::to_string(g->players) + " players)");
      g->killed = true;
      server_->notify(*g);
      if (g->members.empty()) server_->finalize(g);
    }
  }
  server_->sessions.erase(shared_from_this());
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Server

void Impl::notify(Game& game) {
  for (Session* m : game.members) m->wake();
  for (Session* t : game.talkers) t->wake();
  for (auto& c : game.cpus) c->wake();
}

void Impl::append(Game& game, Click click) {
  if (game.killed) return;
  game.moves.push_back(click);
  replay(game, click);
  if (game.moves.size() >= options.max_clicks) {
    // Ended like a game a player left: the last click is still delivered, then every
    // connection gets (−2, −2) or its end of stream.
    log("game " + std::to_string(game.id) + ": " + std::to_string(game.moves.size()) +
        " clicks, the most kept per game; killing it");
    game.click_limit = true;
    game.killed = true;
    notify(game);
  }
}

void Impl::replay(Game& game, Click click) {
  if (!game.machine || game.replay_broken || click.x < 0) return;
  if (game.machine->over() || game.machine->asked() != click.seat) {
    // The relay never checks rules (§11): a click out of turn desynchronises the clients,
    // and the replay stops here.
    log("game " + std::to_string(game.id) + ": click from seat " + std::to_string(click.seat) +
        " out of turn; replay stopped");
    game.replay_broken = true;
    return;
  }
  game.machine->click(click.x, click.y);
}

void Impl::maybe_cpu_fill(const std::shared_ptr<Game>& game) {
  if (options.cpu_fill_after.count() <= 0) return;
  auto self = shared_from_this();
  asio::co_spawn(
      strand,
      [self, game]() -> awaitable<void> {
        asio::steady_timer t(self->strand, self->options.cpu_fill_after);
        boost::system::error_code ec;
        co_await t.async_wait(asio::redirect_error(use_awaitable, ec));
        if (game->killed || game->started || self->stopped) co_return;
        for (int s = 0; s < game->players; ++s) {
          if (game->types[s] != SeatType::kNetwork || game->filled[s] || game->reserved[s]) {
            continue;
          }
          game->types[s] = SeatType::kAi;
          game->names[s] = "CPU " + std::to_string(s + 1);
          game->filled[s] = true;
          game->last_joined = s;
          auto cpu = std::make_shared<CpuSeat>(self, game, s);
          game->cpus.push_back(cpu);
          cpu->start();
        }
        self->notify(*game);
      },
      asio::detached);
}

void Impl::finalize(const std::shared_ptr<Game>& game) {
  games.erase(game->id);
  // Game and CpuSeat point at each other: drop the game's side so both are freed once the
  // woken seats leave their loops.
  game->finalized = true;
  const auto cpus = std::move(game->cpus);
  game->cpus.clear();
  for (auto& c : cpus) c->wake();
  log("finalizing game " + std::to_string(game->id) + " kill");
  FinishedLegacyGame done;
  done.id = game->id;
  done.name = game->name;
  done.display_name = latin1_to_utf8(game->name);
  for (const std::string& n : game->names) done.seat_names.push_back(latin1_to_utf8(n));
  done.clicks.names = game->names;  // the wire bytes, as the original's dump
  done.click_limit = game->click_limit;
  for (const Click& c : game->moves) done.clicks.records.push_back({c.seat, c.x, c.y});
  if (game->machine) {
    done.finished = game->machine->over();
    try {
      auto bgame = legacy_game(game->players);
      auto initial = bgame->make_state(game->start);
      std::vector<Move> moves;
      auto state = initial->clone();
      for (const ClickTurn& t : game->machine->turns()) {
        moves.push_back(t.token);
        done.moves.push_back(state->move_to_string(t.token));
        state->apply(t.token);
      }
      done.game_spec = bgame->spec();
      RecordHeader header;
      header.seats = done.seat_names;
      header.extra_tags.emplace_back("Event", "biloba 0.9.3 network game " +
                                                  std::to_string(game->id) + " \"" +
                                                  done.display_name + "\"");
      done.record = write_record(*initial, moves, header);
    } catch (const std::exception& e) {
      log("game " + std::to_string(game->id) + ": no record: " + e.what());
    }
  }
  if (!options.dump_dir.empty() && game->moves.size() >= 3) {
    const std::string path =
        (std::filesystem::path(options.dump_dir) / dump_file_name(game->id, game->name)).string();
    try {
      write_blb_file(path, done.clicks);
    } catch (const std::exception& e) {
      log("Can't dump game " + std::to_string(game->id) + " (" + game->name + ") to " + path +
          ": " + e.what());
    }
  }
  if (options.on_finished) {
    try {
      options.on_finished(done);
    } catch (const std::exception& e) {
      log(std::string("on_finished: ") + e.what());
    }
  }
}

awaitable<void> Impl::accept_loop() {
  auto self = shared_from_this();
  plateau::server::RateLimitedLog failures;
  while (!stopped) {
    boost::system::error_code ec;
    tcp::socket socket = co_await acceptor.async_accept(strand, asio::redirect_error(use_awaitable, ec));
    if (ec) {
      if (stopped || ec == asio::error::operation_aborted) co_return;
      if (failures.due()) log("accept failed: " + ec.message());
      if (ec == asio::error::no_descriptors ||
          ec == boost::system::errc::too_many_files_open_in_system ||
          ec == asio::error::no_buffer_space || ec == asio::error::no_memory) {
        // Retrying at once would spin: the connection waits in the backlog until a
        // descriptor is free.
        asio::steady_timer t(strand, options.accept_backoff);
        co_await t.async_wait(asio::redirect_error(use_awaitable, ec));
      }
      continue;
    }
    std::shared_ptr<const void> slot;
    if (options.admit) {
      const auto peer = socket.remote_endpoint(ec);
      if (!ec) slot = options.admit(peer.address().to_string());
      if (!slot) {
        socket.close(ec);
        continue;
      }
    }
    auto session = std::make_shared<Session>(self, std::move(socket), std::move(slot));
    sessions.insert(session);
    session->start();
  }
}

LegacyServer::LegacyServer(asio::any_io_executor executor, LegacyServerOptions options)
    : impl_(std::make_shared<Impl>(std::move(executor), std::move(options))) {}

LegacyServer::~LegacyServer() {
  if (impl_ && !impl_->stopped) {
    try {
      stop();
    } catch (...) {
    }
  }
}

void LegacyServer::start() {
  const auto address = asio::ip::make_address(impl_->options.address);
  tcp::endpoint endpoint(address, impl_->options.port);
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(tcp::acceptor::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  port_ = impl_->acceptor.local_endpoint().port();
  impl_->log("Listening on " + impl_->options.address + ":" + std::to_string(port_));
  auto impl = impl_;
  asio::co_spawn(impl->strand, [impl]() { return impl->accept_loop(); }, asio::detached);
}

void LegacyServer::stop() {
  auto impl = impl_;
  asio::dispatch(impl->strand, [impl]() {
    impl->stopped = true;
    boost::system::error_code ec;
    impl->acceptor.close(ec);
    auto sessions = impl->sessions;
    for (auto& s : sessions) s->close();
    for (auto& [id, g] : impl->games) {
      g->killed = true;
      impl->notify(*g);
    }
  });
}

void LegacyServer::release_after_stop() {
  impl_->sessions.clear();
  for (auto& [id, g] : impl_->games) g->cpus.clear();
  impl_->games.clear();
}

std::vector<LegacyGameStatus> LegacyServer::games() {
  std::promise<std::vector<LegacyGameStatus>> promise;
  auto future = promise.get_future();
  auto impl = impl_;
  asio::post(impl->strand, [impl, &promise]() {
    std::vector<LegacyGameStatus> out;
    for (auto& [id, g] : impl->games) {
      LegacyGameStatus s;
      s.id = id;
      s.name = g->name;
      s.players = g->players;
      s.started = g->started;
      s.killed = g->killed;
      s.connections = static_cast<int>(g->members.size());
      s.clicks = static_cast<int>(g->moves.size());
      if (g->machine) s.board = format_position(g->machine->board());
      out.push_back(std::move(s));
    }
    promise.set_value(std::move(out));
  });
  return future.get();
}

LegacyServerThread::LegacyServerThread(LegacyServerOptions options) {
  server_ = std::make_unique<LegacyServer>(io_.get_executor(), std::move(options));
  server_->start();
  thread_ = std::thread([this]() { io_.run(); });
}

LegacyServerThread::~LegacyServerThread() {
  server_->stop();
  // Give sessions a moment to unwind, then stop the loop regardless.
  auto guard_deadline = Clock::now() + std::chrono::seconds(2);
  while (Clock::now() < guard_deadline && !io_.stopped()) {
    if (server_->games().empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  io_.stop();
  if (thread_.joinable()) thread_.join();
  server_->release_after_stop();
}

}  // namespace plateau::biloba::net
