#pragma once
// Internal to the legacy server: a Plateau CPU seat in a legacy game (a seat declared AI in the
// player details, or a free network seat filled after cpu_fill_after).
#include <cstddef>
#include <memory>

#include "compat/biloba/legacy_state.h"

namespace plateau::biloba::net::detail {

using Impl = LegacyServer::Impl;

// A Plateau CPU seat in a legacy game: reads the server's replay and appends its clicks.
class CpuSeat : public std::enable_shared_from_this<CpuSeat> {
 public:
  CpuSeat(std::shared_ptr<Impl> server, std::shared_ptr<Game> game, int seat)
      : server_(std::move(server)), game_(std::move(game)), seat_(seat), wake_(server_->strand) {}
  void start() {
    auto self = shared_from_this();
    asio::co_spawn(
        server_->strand, [self]() { return self->run(); }, asio::detached);
  }
  void wake() { wake_.cancel(); }

 private:
  // The seat is asked, the replay is sound and every connection has seen every click.
  bool my_turn() const;
  awaitable<void> run();

  std::shared_ptr<Impl> server_;
  std::shared_ptr<Game> game_;
  int seat_;
  asio::steady_timer wake_;
  std::size_t stuck_turn_ = static_cast<std::size_t>(-1);
};

}  // namespace plateau::biloba::net::detail
