#include "compat/biloba/legacy_server.h"

#include <filesystem>
#include <future>
#include <stdexcept>
#include <string>

#include "compat/biloba/click_player.h"
#include "compat/biloba/legacy_cpu_seat.h"
#include "compat/biloba/legacy_session.h"
#include "compat/biloba/legacy_state.h"
#include "core/record.h"
#include "core/text.h"
#include "games/biloba/biloba_notation.h"
#include "server/rate_limited_log.h"

namespace plateau::biloba::net {

using namespace detail;

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
  report_turns(game);
}

void Impl::started(Game& game) {
  if (!options.on_started) return;
  StartedLegacyGame s;
  s.id = game.id;
  s.display_name = latin1_to_utf8(game.name);
  for (int seat = 0; seat < game.players; ++seat) {
    s.seat_names.push_back(latin1_to_utf8(game.names[seat]));
    s.cpu.push_back(game.types[seat] == SeatType::kAi);
  }
  s.game_spec = legacy_game(game.players)->spec();
  try {
    options.on_started(s);
  } catch (const std::exception& e) {
    log(std::string("on_started: ") + e.what());
  }
}

void Impl::report_turns(Game& game) {
  if (!options.on_turn || !game.machine) return;
  const auto& turns = game.machine->turns();
  try {
    if (!game.turn_state) game.turn_state = legacy_game(game.players)->make_state(game.start);
    while (game.turns_told < turns.size()) {
      const Move& token = turns[game.turns_told].token;
      const std::string text = game.turn_state->move_to_string(token);
      game.turn_state->apply(token);
      ++game.turns_told;
      options.on_turn(game.id, static_cast<int>(game.turns_told), text);
    }
  } catch (const std::exception& e) {
    log("game " + std::to_string(game.id) + ": on_turn: " + e.what());
    game.turns_told = turns.size();
  }
}

void Impl::add_chat(Game& game, int seat, std::string text) {
  // Past the bound a line is dropped for everyone: not relayed, and not reported either (each
  // report becomes a stored chat row of the game's lobby table).
  if (game.chat.size() >= kMaxChatLines) return;
  if (seat != kOutsideSeat && options.on_chat) {
    try {
      options.on_chat(game.id, seat, latin1_to_utf8(text));
    } catch (const std::exception& e) {
      log(std::string("on_chat: ") + e.what());
    }
  }
  game.chat.emplace_back(seat, std::move(text));
  for (Session* t : game.talkers) t->wake();
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
    tcp::socket socket =
        co_await acceptor.async_accept(strand, asio::redirect_error(use_awaitable, ec));
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
    if (options.divert && options.divert(socket, slot)) continue;  // relayed elsewhere
    auto session = std::make_shared<Session>(self, Stream(std::move(socket)), std::move(slot));
    sessions.insert(session);
    session->start();
  }
}

namespace {

LegacyServerOptions checked(LegacyServerOptions options) {
  if (!options.cpu_executor) {
    throw std::invalid_argument("LegacyServer: no executor for the CPU seats (cpu_executor)");
  }
  return options;
}

}  // namespace

LegacyServer::LegacyServer(asio::any_io_executor executor, LegacyServerOptions options)
    : impl_(std::make_shared<Impl>(std::move(executor), checked(std::move(options)))) {}

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
  asio::co_spawn(
      impl->strand, [impl]() { return impl->accept_loop(); }, asio::detached);
}

bool LegacyServer::adopt(boost::asio::local::stream_protocol::socket socket,
                         const std::string& address) {
  std::shared_ptr<const void> slot;
  if (impl_->options.admit) {
    slot = impl_->options.admit(address);
    if (!slot) return false;
  }
  auto impl = impl_;
  auto stream = std::make_shared<Stream>(std::move(socket));
  asio::dispatch(impl->strand, [impl, stream, slot = std::move(slot)]() mutable {
    if (impl->stopped) return;  // the socket closes with `stream`: the relay sees the end
    auto session = std::make_shared<Session>(impl, std::move(*stream), std::move(slot));
    impl->sessions.insert(session);
    session->start();
  });
  return true;
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

namespace {

// UTF-8 to the wire's Latin-1: a character above U+00FF (or a bad byte) becomes '?'; at most
// `limit` bytes.
std::string utf8_to_latin1(std::string_view text, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && out.size() < limit;) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = c < 0x80         ? 1
                      : (c >> 5) == 6  ? 2
                      : (c >> 4) == 14 ? 3
                      : (c >> 3) == 30 ? 4
                                       : 1;
    if (i + len > text.size()) len = text.size() - i;
    if (len == 1 && c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if (len == 2 && c <= 0xC3) {
      out.push_back(static_cast<char>(((c & 0x1F) << 6) | (text[i + 1] & 0x3F)));
    } else {
      out.push_back('?');
    }
    i += len;
  }
  return out;
}

}  // namespace

void LegacyServer::say(int id, std::string text) {
  auto impl = impl_;
  asio::post(impl->strand, [impl, id, text = utf8_to_latin1(text, kMaxStringChars)]() mutable {
    auto it = impl->games.find(id);
    if (it == impl->games.end() || it->second->killed) return;
    impl->add_chat(*it->second, kOutsideSeat, std::move(text));
  });
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
  if (!options.cpu_executor) options.cpu_executor = cpus_.get_executor();
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
  cpus_.stop();
  cpus_.join();
  server_->release_after_stop();
}

}  // namespace plateau::biloba::net