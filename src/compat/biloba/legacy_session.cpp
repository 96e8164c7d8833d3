#include "compat/biloba/legacy_session.h"

#include <sys/socket.h>

#include <cerrno>

#include "compat/biloba/legacy_cpu_seat.h"
#include "core/text.h"

namespace plateau::biloba::net::detail {

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
        server_->started(g);
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
  socket_.async_wait(Stream::wait_read, [self, wait_id](boost::system::error_code ec) {
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
    log(" < game " + std::to_string(g.id) + ": player " + std::to_string(seat) + " sends move ID " +
        std::to_string(g.moves.size() - 1) + " (x " + std::to_string(x) + ", y " +
        std::to_string(y) + ")");
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
  if (it == server_->games.end() || it->second->killed || seat < 0 || seat >= it->second->players) {
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
  asio::co_spawn(
      server_->strand, [self]() { return self->talk_reader(); }, asio::detached);
  no_deadline();
  try {
    while (!g->killed && socket_.is_open()) {
      if (chat_cursor < g->chat.size()) {
        const auto& [from, text] = g->chat[chat_cursor++];
        out.clear();
        // A line from outside the game comes as from another seat: the original client hides
        // its own seat's lines (LegacyServer::say).
        put_int(out, from != kOutsideSeat ? from : seat_ == 0 ? 1 : 0);
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
        log(" received message '" + text + "' from player " + std::to_string(seat_) + ".");
        server_->add_chat(*g, seat_, text);
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
      if (!g->killed)
        log("killing game " + std::to_string(g->id) + " (" + std::to_string(g->players) +
            " players)");
      g->killed = true;
      server_->notify(*g);
      if (g->members.empty()) server_->finalize(g);
    }
  }
  server_->sessions.erase(shared_from_this());
}

}  // namespace plateau::biloba::net::detail
