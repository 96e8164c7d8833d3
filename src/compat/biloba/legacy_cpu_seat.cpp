#include "compat/biloba/legacy_cpu_seat.h"

#include <optional>
#include <string>

#include "compat/biloba/click_player.h"
#include "compat/biloba/legacy_session.h"

namespace plateau::biloba::net::detail {

bool CpuSeat::my_turn() const {
  const Game& g = *game_;
  if (g.killed || !g.started || !g.machine || g.replay_broken || g.machine->over()) return false;
  if (g.machine->asked() != seat_ || stuck_turn_ == g.machine->turns().size()) return false;
  for (Session* m : g.members) {
    if (m->has_pending(g)) return false;
  }
  return true;
}

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

}  // namespace plateau::biloba::net::detail
