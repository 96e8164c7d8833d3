// Presentation: status lines, board pages and the events that carry the table's state.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "server/lobby.h"
#include "server/table.h"
#include "server/table_util.h"

namespace plateau::server {

using nlohmann::json;
using table_detail::same_name;
using table_detail::utc_date;
using table_detail::utc_time;

json Table::clocks_json() const {
  if (!clock_.enabled() || bank_ms_.empty() || !state_) return nullptr;
  const auto players = players_by_game_seat();
  const int to_move = status_ == TableStatus::kPlaying ? state_->current_seat() : kTerminalSeat;
  const std::int64_t now = Lobby::now_ms();
  json out = json::array();
  for (std::size_t g = 0; g < bank_ms_.size(); ++g) {
    const bool running = static_cast<int>(g) == to_move;
    out.push_back({{"label", game_->seat_label(static_cast<int>(g))},
                   {"user", players[g]},
                   {"left_ms", time_left_ms(clock_, bank_ms_[g], running, turn_started_ms_, now)},
                   {"running", running}});
  }
  return out;
}

std::string Table::status_line() const {
  switch (status_) {
    case TableStatus::kSetup: {
      for (std::size_t s = 0; s < seats_.size(); ++s) {
        if (seats_[s].kind.empty()) {
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

std::string Table::page(const std::string& heading, const State& shown, int shown_ply) const {
  PageInput in;
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
                 "user"});
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
  return board_page(shown, in);
}

Event Table::table_event(const std::string& text) const {
  json seats = json::array();
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    const int g = status_ == TableStatus::kSetup ? static_cast<int>(s)
                                                 : game_seat_of_table_seat(static_cast<int>(s));
    seats.push_back({{"seat", s + 1},
                     {"label", game_->seat_label(g)},
                     {"kind", seats_[s].kind.empty() ? "free" : seats_[s].kind},
                     {"name", seats_[s].name}});
  }
  json data = {{"game", game_name_},
               {"board", number_},
               {"status", status_name(status_)},
               {"seats", seats},
               {"options", game_->options_string()},
               {"clock", clock_.to_string()},
               {"rated", rated_},
               {"ply", moves_.size()},
               {"flags", table_flags_},
               {"spectators", spectators()},
               {"text", text}};
  if (table_flags_.count("invisible")) data["record"] = record_path();
  return Event{"table", std::move(data), {}};
}

Event Table::spectators_event(const std::string& text) const {
  json data = {
      {"game", game_name_}, {"board", number_}, {"spectators", spectators()}, {"text", text}};
  return Event{"spectators", std::move(data), {}};
}

Event Table::move_event(const Played& p, int ply) const {
  const auto players = players_by_game_seat();
  json data = {{"game", game_name_},
               {"board", number_},
               {"ply", ply},
               {"seat", p.seat},
               {"label", game_->seat_label(p.seat)},
               {"user", players[static_cast<std::size_t>(p.seat)]},
               {"move", p.text},
               {"auto", p.automatic},
               {"position", state_->serialize()},
               {"status", status_name(status_)}};
  const int next = state_->current_seat();
  if (next != kTerminalSeat) {
    data["next_seat"] = next;
    data["next_user"] = players[static_cast<std::size_t>(next)];
  }
  if (!bank_ms_.empty() && clock_.enabled()) {
    data["clock_ms"] = bank_ms_;
    data["clocks"] = clocks_json();
  }
  data["text"] = label() + ": " + std::to_string(ply) + ". " + game_->seat_label(p.seat) + " " +
                 players[static_cast<std::size_t>(p.seat)] + " " + p.text +
                 (p.automatic ? " (Auto)" : "");
  return Event{"move", std::move(data), {}};
}

Event Table::board_event(const std::string& heading) const {
  json data = {{"game", game_name_},
               {"board", number_},
               {"status", status_name(status_)},
               {"ply", moves_.size()},
               {"text", ""}};
  if (!state_) {
    Event e = table_event("");
    e.page = title() + ": " + status_line() + "\n";
    return e;
  }
  data["position"] = state_->serialize();
  data["status_line"] = status_line();
  data["spectators"] = spectators();
  if (table_flags_.count("invisible")) data["record"] = record_path();
  if (clock_.enabled()) data["clocks"] = clocks_json();
  const int next = seat_to_move();
  if (next >= 0) data["next_user"] = owner_name(next);
  return Event{"board", std::move(data), page(heading, *state_, static_cast<int>(moves_.size()))};
}

}  // namespace plateau::server
