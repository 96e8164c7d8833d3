#include "compat/biloba/legacy_cpu_seat.h"

#include <memory>
#include <string>
#include <utility>

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

namespace {

constexpr int kBotFailed = -2;  // next_click threw

// Runs player->next_click(machine) on `workers` and completes on `strand` with the square (-1:
// no legal move, kBotFailed: the bot threw). The bot works on its own copy of the replay, and
// nothing else touches `player` meanwhile: its seat waits for the answer.
template <typename Token>
auto async_next_click(asio::any_io_executor workers, Strand strand,
                      std::shared_ptr<ClickPlayer> player, ClickMachine machine, Token&& token) {
  return asio::async_initiate<Token, void(int)>(
      [](auto handler, asio::any_io_executor workers, Strand strand,
         std::shared_ptr<ClickPlayer> player, ClickMachine machine) {
        asio::post(workers, [handler = std::move(handler), strand, player = std::move(player),
                             machine = std::move(machine)]() mutable {
          int square = kBotFailed;
          try {
            square = player->next_click(machine);
          } catch (...) {
          }
          asio::post(strand, [handler = std::move(handler), square]() mutable {
            std::move(handler)(square);
          });
        });
      },
      token, std::move(workers), std::move(strand), std::move(player), std::move(machine));
}

}  // namespace

awaitable<void> CpuSeat::run() {
  std::shared_ptr<ClickPlayer> player;
  try {
    player = std::make_shared<ClickPlayer>(
        server_->options.cpu_bot,
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
    // The bot thinks on the worker pool, never on the strand: a slow level stalls no
    // connection. Meanwhile the game may end or go astray; its answer is then dropped.
    const int square = co_await async_next_click(*server_->options.cpu_executor, server_->strand,
                                                 player, *g.machine, use_awaitable);
    if (g.killed || g.finalized || server_->stopped || !my_turn()) continue;
    if (square == kBotFailed) {
      server_->log("game " + std::to_string(g.id) + ": cpu seat " + std::to_string(seat_) +
                   ": the bot failed");
      co_return;
    }
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
