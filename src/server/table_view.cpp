// What the table shows of itself: status lines, board pages, and the facts its typed events
// carry (table_event.h); the renderers (render_table.cpp) turn those into messages.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "core/error.h"
#include "server/table.h"
#include "server/table_util.h"

namespace plateau::server {

using table_detail::same_name;
using table_detail::utc_date;
using table_detail::utc_time;

ClocksView Table::clocks_view() const {
  ClocksView out;
  if (!clock_.enabled()) return out;
  out.show = ClocksView::Show::kNull;
  if (bank_ms_.empty() || !state_) return out;
  out.show = ClocksView::Show::kList;
  const auto players = players_by_game_seat();
  const int to_move = status_ == TableStatus::kPlaying ? state_->current_seat() : kTerminalSeat;
  const std::int64_t now = TableServices::now_ms();
  for (std::size_t g = 0; g < bank_ms_.size(); ++g) {
    const bool running = static_cast<int>(g) == to_move;
    out.list.push_back({game_->seat_label(static_cast<int>(g)), players[g],
                        time_left_ms(clock_, bank_ms_[g], running, turn_started_ms_, now),
                        running});
  }
  return out;
}

std::string Table::status_line() const {
  switch (status_) {
    case TableStatus::kSetup: {
      for (std::size_t s = 0; s < seats_.size(); ++s) {
        if (seats_[s].free()) {
          return "Waiting for players: seat " + std::to_string(s + 1) + " is free.";
        }
      }
      return "Waiting for /start.";
    }
    case TableStatus::kDeclined:
      if (reason_ == "declined") return declined_by_ + " has disagreed to play.";
      if (reason_ == "time") {
        return "No result: " + declined_by_ + " ran out of time before every player had moved.";
      }
      return "No result: " + declined_by_ + " forfeited (" + reason_ +
             ") before every player had moved.";
    case TableStatus::kOver: {
      if (returns_.empty()) return "Game ended without a result (" + reason_ + ").";
      std::vector<std::string> winners;
      const auto players = players_by_game_seat();
      for (std::size_t g = 0; g < returns_.size(); ++g) {
        if (returns_[g] > 0) winners.push_back(players[g]);
      }
      if (winners.size() == 1) return "Game won by " + winners[0] + ".";
      if (winners.size() == returns_.size()) return "Game was a tie.";
      return "Game was a tie between " + join(winners, " and ") + ".";
    }
    case TableStatus::kPlaying:
      break;
  }
  if (request_) {
    std::vector<std::string> waiting;
    for (int s : human_seats_except(request_->by)) {
      if (!request_->accepted.count(s)) waiting.push_back(owner_name(s));
    }
    const std::string by = owner_name(request_->by);
    const std::string who = join(waiting, " and ");
    if (request_->kind == RequestKind::kDraw)
      return by + " has proposed a draw; waiting for " + who + ".";
    return by + " has asked to undo the last move; waiting for " + who + ".";
  }
  if (moves_.empty()) return "Please start the game, " + players_by_game_seat()[0] + ".";
  return "It is " + owner_name(seat_to_move()) + "'s turn.";
}

PagePtr Table::page(const std::string& heading, const State& shown, int shown_ply) const {
  auto view = std::make_shared<PageView>();
  view->shown = shown.clone();
  PageInput& in = view->input;
  in.title = heading + " of " + title();
  if (heading == "New") in.title = "New " + title();
  const bool current = shown_ply == static_cast<int>(moves_.size());
  in.status_line =
      current ? status_line() : "As it stood after ply " + std::to_string(shown_ply) + ".";
  in.players = players_by_game_seat();
  for (int i = 0; i < shown_ply; ++i) {
    const Played& p = moves_[static_cast<std::size_t>(i)];
    in.moves.push_back(
        {p.text, p.seat,
         p.automatic && !seats_.empty() &&
             seats_[static_cast<std::size_t>(order_.empty() ? p.seat : order_[p.seat])].kind ==
                 SeatKind::kUser});
  }
  const bool over = status_ == TableStatus::kOver || status_ == TableStatus::kDeclined;
  if (current) {
    for (const auto& e : extra_entries_) in.moves.push_back(e);
    if (over) in.rating_lines = rating_lines_;
    const std::int64_t since = moves_.empty() ? 0 : moves_.back().at_ms;
    for (const auto& c : chat_) {
      if (c.at_ms >= since) in.comments.emplace_back(c.user, c.text);
    }
  }
  in.full_list = over;
  if (over && current) {
    in.closing_lines.push_back("Game started: " + utc_time(started_ms_));
    if (!moves_.empty())
      in.closing_lines.push_back("Last move made: " + utc_time(moves_.back().at_ms));
    in.closing_lines.push_back("Game ended: " + utc_time(ended_ms_));
  }
  return view;
}

TableView Table::table_view() const {
  TableView v;
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    const int g = status_ == TableStatus::kSetup ? static_cast<int>(s)
                                                 : game_seat_of_table_seat(static_cast<int>(s));
    v.seats.push_back(
        {static_cast<int>(s) + 1, game_->seat_label(g), seats_[s].kind, seats_[s].name});
  }
  v.game = game_name_;
  v.board = number_;
  v.status = status_;
  v.options = game_->options_string();
  v.clock = clock_.to_string();
  v.rated = rated_;
  v.ply = static_cast<int>(moves_.size());
  v.flags = table_flags_;
  v.spectators = spectators();
  if (table_flags_.count("invisible")) v.record = record_path();
  v.last_seq = seq_;
  return v;
}

SpectatorsChanged Table::spectators_changed(SpectatorsChanged::What what,
                                            const std::string& user) const {
  return {what, user, game_name_, number_, spectators()};
}

MovePlayed Table::move_played(const Played& p, int ply) const {
  const auto players = players_by_game_seat();
  MovePlayed m;
  m.game = game_name_;
  m.board = number_;
  m.ply = ply;
  m.seat = p.seat;
  m.label = game_->seat_label(p.seat);
  m.user = players[static_cast<std::size_t>(p.seat)];
  m.move = p.text;
  m.automatic = p.automatic;
  m.position = state_->serialize();
  m.status = status_;
  const int next = state_->current_seat();
  if (next != kTerminalSeat) {
    m.next_seat = next;
    m.next_user = players[static_cast<std::size_t>(next)];
  }
  if (!bank_ms_.empty() && clock_.enabled()) {
    m.clocked = true;
    m.clock_ms = bank_ms_;
    m.clocks = clocks_view();
  }
  return m;
}

BoardView Table::board_view(const std::string& heading) const {
  BoardView b;
  b.game = game_name_;
  b.board = number_;
  b.status = status_;
  b.ply = static_cast<int>(moves_.size());
  b.last_seq = seq_;
  if (!state_) {
    b.setup = true;
    b.table = table_view();
    b.title = title();
    b.status_line = status_line();
    return b;
  }
  b.position = state_->serialize();
  b.status_line = status_line();
  b.spectators = spectators();
  if (table_flags_.count("invisible")) b.record = record_path();
  b.clocks = clocks_view();
  const int next = seat_to_move();
  if (next >= 0) b.next_user = owner_name(next);
  b.page = page(heading, *state_, static_cast<int>(moves_.size()));
  return b;
}

}  // namespace plateau::server
