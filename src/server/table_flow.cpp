// Game flow: playing a move, the end of a game, undo, clocks and CPU seats.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "core/error.h"
#include "server/table.h"
#include "server/table_util.h"

namespace plateau::server {

using table_detail::same_name;
using table_detail::utc_date;
using table_detail::utc_time;

namespace {

std::string format_return(double r) {
  if (r == 1.0) return "1";
  if (r == 0.0) return "0";
  for (int d = 2; d <= 8; ++d) {
    for (int n = 1; n < d; ++n) {
      if (std::abs(r - static_cast<double>(n) / d) < 1e-9) {
        return std::to_string(n) + "/" + std::to_string(d);
      }
    }
  }
  return std::to_string(r);
}

std::string format_result(const std::vector<double>& returns) {
  std::vector<std::string> parts;
  for (double r : returns) parts.push_back(format_return(r));
  return join(parts, "-");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Game flow

void Table::play(Tx& tx, const Move& move, int seat, bool automatic) {
  const std::int64_t now = TableServices::now_ms();
  std::string text = state_->move_to_string(move);
  if (clock_.enabled() && seat < static_cast<int>(bank_ms_.size())) {
    bank_ms_[seat] = bank_after_move(clock_, bank_ms_[seat], now - turn_started_ms_);
  }
  state_->apply(move);
  Played p{move, text, seat, automatic, now};
  moves_.push_back(p);
  const int ply = static_cast<int>(moves_.size());
  tx.batch.add_move({id_, ply, text, seat, automatic, now});
  request_.reset();
  turn_started_ms_ = now;
  tx.table_changed = true;
  // The board page as it stands once the whole action is done (queued and CPU replies).
  tx.all_with_final_page(move_played(p, ply));
}

void Table::after_move(Tx& tx) {
  for (int guard = 0; guard < 10000; ++guard) {
    if (state_->is_terminal()) {
      // The rules' own end is "rules"; an end such as Biloba's no-progress draw says which.
      const std::string why = state_->termination();
      end_game(tx, without_resigned(state_->returns()), why.empty() ? "rules" : why);
      return;
    }
    if (end_if_contest_over(tx)) return;
    if (moves_.size() >= services_.limits().max_plies) {
      // Equal shares among the seats still in play (all of them if none is).
      const int n = game_->num_seats();
      std::vector<double> shares(static_cast<std::size_t>(n), 0.0);
      int in_play = 0;
      for (int g = 0; g < n; ++g) in_play += state_->seat_in_play(g) ? 1 : 0;
      for (int g = 0; g < n; ++g) {
        if (in_play == 0 || state_->seat_in_play(g)) {
          shares[static_cast<std::size_t>(g)] = 1.0 / (in_play == 0 ? n : in_play);
        }
      }
      end_game(tx, without_resigned(shares), "ply limit");
      return;
    }
    const int ts = seat_to_move();
    const SeatOwner& owner = seats_[static_cast<std::size_t>(ts)];
    if (owner.kind != SeatKind::kUser || resigned_.count(ts)) return;
    const std::string key = to_lower(owner.name);
    if (queued_resign_.erase(key)) {
      resign_seat(tx, ts, "Resign");
      return;
    }
    if (!play_queued(tx, owner)) return;
  }
}

void Table::resign_seat(Tx& tx, int table_seat, const std::string& entry,
                        const std::string& reason) {
  const int n = game_->num_seats();
  const int g = game_seat_of_table_seat(table_seat);
  const std::string why = !reason.empty() ? reason : entry == "Forfeit" ? "time" : "resign";
  if (!everyone_moved()) return end_without_result(tx, table_seat, why);
  extra_entries_.push_back({entry, g, false});
  std::vector<double> returns(static_cast<std::size_t>(n), n > 1 ? 1.0 / (n - 1) : 0.0);
  returns[static_cast<std::size_t>(g)] = 0.0;
  end_game(tx, returns, why);
}

void Table::end_without_result(Tx& tx, int table_seat, const std::string& why) {
  // pbmserv: resigning before both players have moved declines the challenge; losing on time
  // or by a failing computer player that early is no more a game (it would let anyone farm
  // the rating of an absent account with a short clock).
  status_ = TableStatus::kDeclined;
  reason_ = why == "resign" ? "declined" : why;
  declined_by_ = owner_name(table_seat);
  ended_ms_ = TableServices::now_ms();
  request_.reset();
  rating_lines_.clear();
  if (game_->num_seats() == 2) {
    rating_lines_.push_back(
        "No result and no rating change: the game ended before every "
        "player had moved.");
  }
  tx.table_changed = true;
  spdlog::info("table {}: no result ({} by {})", label(), reason_, declined_by_);
  tx.all(GameEnded{board_view("Summary"), false, "", reason_, {}, rating_lines_});
  clear_queued(tx, "the game is over");
}

void Table::end_game(Tx& tx, std::vector<double> returns, const std::string& reason) {
  status_ = TableStatus::kOver;
  ended_ms_ = TableServices::now_ms();
  reason_ = reason;
  returns_ = std::move(returns);
  result_ = format_result(returns_);
  request_.reset();
  rating_lines_.clear();
  const auto players = players_by_game_seat();
  if (game_->num_seats() == 2) {
    bool rateable = rated_;
    for (std::size_t t = 0; t < seats_.size(); ++t) {
      if (seats_[t].kind == SeatKind::kUser && !services_.is_account(seats_[t].name))
        rateable = false;
    }
    if (rateable) {
      rating_lines_ =
          services_.rate_game(game_name_, players[0], players[1], returns_[0], tx.batch);
    } else {
      rating_lines_.push_back("This game was not rated.");
    }
  }
  tx.table_changed = true;
  spdlog::info("table {}: game over, {} ({})", label(), result_, reason);
  tx.all(GameEnded{board_view("Summary"), true, result_, reason, returns_, rating_lines_});
  clear_queued(tx, "the game is over");
}

void Table::undo_last(Tx& tx) {
  if (moves_.empty()) return;
  moves_.pop_back();
  tx.batch.delete_moves_from(id_, static_cast<int>(moves_.size()) + 1);
  rebuild_state();
  turn_started_ms_ = TableServices::now_ms();
  tx.table_changed = true;
  spdlog::info("table {}: move {} taken back", label(), moves_.size() + 1);
}

void Table::rebuild_state() {
  state_ = initial_->clone();
  for (const auto& p : moves_) state_->apply(p.move);
}

void Table::on_cpu_move(Tx& tx, int ply, const Move& move) {
  thinking_ = false;
  if (status_ != TableStatus::kPlaying || static_cast<int>(moves_.size()) != ply) return;
  const int ts = seat_to_move();
  if (ts < 0 || !computer_plays(ts)) return;
  play(tx, move, state_->current_seat(), true);
  after_move(tx);
}

void Table::on_clock(Tx& tx) {
  if (status_ != TableStatus::kPlaying || !clock_.enabled()) return;
  const int g = state_->current_seat();
  if (g == kTerminalSeat) return;
  // A resigned seat's turns are the computer's: its clock no longer decides the game (a
  // resignation late in one's own turn would otherwise end it for everyone on time).
  if (resigned_.count(seat_to_move())) return;
  const std::int64_t deadline = turn_started_ms_ + turn_allowance_ms(clock_, bank_ms_[g]);
  if (TableServices::now_ms() < deadline) return;
  bank_ms_[g] = 0;
  spdlog::info("table {}: {} lost on time", label(), owner_name(seat_to_move()));
  resign_seat(tx, seat_to_move(), "Forfeit");
}

void Table::arm_clock() {
  if (status_ != TableStatus::kPlaying || !clock_.enabled() || !state_ || state_->is_terminal()) {
    timer_.cancel();
    return;
  }
  if (resigned_.count(seat_to_move())) {  // the computer's turn for a resigned seat: no clock
    timer_.cancel();
    return;
  }
  const int g = state_->current_seat();
  const std::int64_t deadline = turn_started_ms_ + turn_allowance_ms(clock_, bank_ms_[g]);
  const std::int64_t delay = std::max<std::int64_t>(0, deadline - TableServices::now_ms());
  timer_.expires_after(std::chrono::milliseconds(delay + 1));
  const int ply = static_cast<int>(moves_.size());
  timer_.async_wait([self = shared_from_this(), ply](boost::system::error_code ec) {
    if (ec) return;
    self->post(
        Caller{},
        [self, ply](Tx& tx) {
          if (static_cast<int>(self->moves_.size()) == ply) self->on_clock(tx);
        },
        nullptr);
  });
}

void Table::maybe_think() {
  // An external table's CPU seats are played by its external game (table_external.cpp).
  if (thinking_ || status_ != TableStatus::kPlaying || !external_.empty()) return;
  // No pause between computer moves, even when no person is left in play (issue 14): each
  // move is one job on the table's strand and one store commit, so a table of computers alone
  // takes one move per turn of the event loop and cannot starve the others.
  const int ts = seat_to_move();
  if (ts < 0 || !computer_plays(ts)) return;
  const int ply = static_cast<int>(moves_.size());
  auto& bot = bots_[static_cast<std::size_t>(ts)];
  if (!bot) {
    // Levels have fixed budgets; the cap keeps a bot within the table's clock (and a server
    // from thinking for ever without one).
    BotOptions options;
    options.seed = static_cast<std::uint64_t>(id_) * 1000003u + static_cast<std::uint64_t>(ts);
    options.movetime_ms = 10000;
    if (clock_.mode == ClockSettings::Mode::kPerMove) {
      options.movetime_ms = std::min<std::int64_t>(options.movetime_ms, clock_.base_ms / 2);
    } else if (clock_.mode == ClockSettings::Mode::kFischer) {
      options.movetime_ms = std::min<std::int64_t>(options.movetime_ms,
                                                   clock_.base_ms / 40 + clock_.increment_ms / 2);
    }
    options.movetime_ms = std::max<std::int64_t>(options.movetime_ms, 50);
    try {
      const SeatOwner& owner = seats_[static_cast<std::size_t>(ts)];
      bot = make_bot(owner.kind == SeatKind::kCpu ? owner.name : kResignedBot, options);
    } catch (const std::exception& e) {
      const std::string why = e.what();
      post(
          Caller{},
          [self = shared_from_this(), ply, why](Tx& tx) { self->cpu_failed(tx, ply, why); },
          nullptr);
      thinking_ = true;
      return;
    }
  }
  thinking_ = true;
  std::shared_ptr<State> position = state_->clone();
  boost::asio::post(services_.workers(), [self = shared_from_this(), bot, position, ply] {
    auto move = std::make_shared<Move>();
    std::string error;
    try {
      *move = bot->choose_move(*position);
    } catch (const std::exception& e) {
      error = e.what();
    }
    self->post(
        Caller{},
        [self, ply, move, error](Tx& tx) {
          if (!error.empty()) return self->cpu_failed(tx, ply, error);
          self->on_cpu_move(tx, ply, *move);
        },
        nullptr);
  });
}

void Table::cpu_failed(Tx& tx, int ply, const std::string& why) {
  thinking_ = false;
  if (status_ != TableStatus::kPlaying || static_cast<int>(moves_.size()) != ply) return;
  const int ts = seat_to_move();
  if (ts < 0 || !computer_plays(ts)) return;
  // A computer player that cannot play this game (e.g. a level the game does not support)
  // must not stall the table: it forfeits.
  spdlog::error("table {}: {} cannot move: {}", label(), owner_name(ts), why);
  tx.all(CpuForfeit{owner_name(ts), why});
  resign_seat(tx, ts, "Forfeit", "cpu failure");
}

}  // namespace plateau::server
