#pragma once
// Internal to the legacy server: one connection on port 8000, the game connection state machine
// of specs/biloba.md §11.2 (or talk mode) as one coroutine on the server's strand.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compat/biloba/legacy_state.h"

namespace plateau::biloba::net::detail {

using Impl = LegacyServer::Impl;

// A connection: the game connection state machine of §11.2 (or talk mode), as one coroutine.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(std::shared_ptr<Impl> server, Stream socket, std::shared_ptr<const void> slot)
      : server_(std::move(server)),
        slot_(std::move(slot)),
        socket_(std::move(socket)),
        wake_(server_->strand),
        watchdog_(server_->strand) {}

  void start() {
    auto self = shared_from_this();
    asio::co_spawn(
        server_->strand, [self]() { return self->watch(); }, asio::detached);
    asio::co_spawn(
        server_->strand, [self]() { return self->run(); }, asio::detached);
  }

  void wake() { wake_.cancel(); }
  void close() {
    boost::system::error_code ec;
    socket_.shutdown(Stream::shutdown_both, ec);
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
  void deadline(std::chrono::milliseconds d) {
    deadline_ = Clock::now() + d;
    wake_watchdog();
  }
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
  Stream socket_;
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

}  // namespace plateau::biloba::net::detail
