// The table's life cycle (construction, replay, create, stop, record) and its queries.
// Elsewhere: the snapshot (table_snapshot.cpp), presentation (table_view.cpp), table commands
// (table_commands.cpp), game commands (table_play.cpp), game flow, clocks and CPU seats
// (table_flow.cpp), strand plumbing (table_tx.cpp), restore (table_restore.cpp), access
// (table_access.cpp), queues (table_queue.cpp), guest clean-up (table_discard.cpp) and
// external tables (table_external.cpp).
#include "server/table.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>
#include <random>

#include "core/error.h"
#include "core/record.h"
#include "core/registry.h"
#include "core/text.h"
#include "server/json_text.h"
#include "server/rating_policy.h"
#include "server/table_util.h"

namespace plateau::server {

using nlohmann::json;
using table_detail::same_name;
using table_detail::utc_date;

const char* status_name(TableStatus status) {
  switch (status) {
    case TableStatus::kSetup:
      return "setup";
    case TableStatus::kPlaying:
      return "playing";
    case TableStatus::kOver:
      return "over";
    case TableStatus::kDeclined:
      return "declined";
  }
  return "setup";
}

Table::Table(TableServices& services, std::int64_t id, std::shared_ptr<const Game> game, int number,
             std::string creator, std::vector<SeatOwner> seats, ClockSettings clock,
             std::int64_t now_ms)
    : services_(services),
      strand_(boost::asio::make_strand(services.io())),
      timer_(strand_),
      id_(id),
      game_name_(game->name()),
      number_(number),
      created_ms_(now_ms),
      game_(std::move(game)),
      creator_(std::move(creator)),
      clock_(clock),
      retry_timer_(strand_),
      log_(services.limits().events_kept) {
  epoch_ = services_.node_id().empty() ? 0 : 1;  // a new row: this node's first epoch
  const int n = game_->num_seats();
  board_ = !seats.empty();
  seats_ = board_ ? std::move(seats) : std::vector<SeatOwner>(static_cast<std::size_t>(n));
  bots_.resize(seats_.size());
  if (board_) {
    // A pbmserv board starts at once: userid1 is seat 1, and seat 1 moves first.
    status_ = TableStatus::kPlaying;
    rated_ = options_are_rated(*game_);
    for (int g = 0; g < n; ++g) order_.push_back(g);
    initial_ = game_->initial_state();
    state_ = initial_->clone();
    started_ms_ = turn_started_ms_ = now_ms;
    bank_ms_.assign(static_cast<std::size_t>(n), clock_.base_ms);
  }
  refresh_summary();
}

Table::Table(TableServices& services, const store::TableRow& row,
             const std::vector<store::MoveRow>& moves, const std::vector<store::ChatRow>& chat,
             const std::vector<store::EventRow>& events)
    : services_(services),
      strand_(boost::asio::make_strand(services.io())),
      timer_(strand_),
      id_(row.id),
      game_name_(row.game),
      number_(row.number),
      created_ms_(row.created_ms),
      retry_timer_(strand_),
      log_(services.limits().events_kept) {
  epoch_ = row.epoch;
  try {
    load_data_json(row.data);
    for (const auto& m : moves) {
      if (!state_) throw std::runtime_error("moves stored for a table that has not started");
      Move move = state_->parse_move(m.move);
      state_->apply(move);
      moves_.push_back({move, m.move, m.seat, m.automatic, m.at_ms});
    }
    for (const auto& ev : events) {
      log_.append(std::make_shared<const RenderedEvent>(decode_table_event(ev)));
      // The events are written with the snapshot that counts them; never behind them.
      seq_ = std::max(seq_, ev.seq);
    }
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot restore table " + row.game + " " + std::to_string(row.number) +
                             ": " + e.what());
  }
  std::size_t first = chat.size() > kChatKept ? chat.size() - kChatKept : 0;
  chat_.assign(chat.begin() + static_cast<std::ptrdiff_t>(first), chat.end());
  bots_.resize(seats_.size());
  // In the current snapshot version (and with seq_ as the events say), so that a roll-back
  // reloads exactly this.
  committed_ = {true, data_json(), moves_, chat_};
  refresh_summary();
}

void Table::refresh_summary() {
  TableSummary s;
  s.game = game_name_;
  s.number = number_;
  s.board = board_;
  s.status = status_;
  s.seats = seats_;
  s.ply = static_cast<int>(moves_.size());
  s.options = game_->options_string();
  s.invisible = table_flags_.count("invisible") > 0;
  s.status_line = status_line();
  s.subscribers.assign(subscribers_.begin(), subscribers_.end());
  s.access = access();
  s.correspondence = clock_.corr.any();
  if (status_ == TableStatus::kPlaying && state_ && !state_->is_terminal()) {
    const int ts = seat_to_move();
    if (ts >= 0 && seats_[static_cast<std::size_t>(ts)].kind == SeatKind::kUser) {
      s.next_user = seats_[static_cast<std::size_t>(ts)].name;
    }
    s.turn_started_ms = turn_started_ms_;
  }
  std::lock_guard lock(summary_mutex_);
  summary_ = std::move(s);
}

TableSummary Table::summary() const {
  std::lock_guard lock(summary_mutex_);
  return summary_;
}

void Table::create(Caller caller, Done done) {
  post(
      std::move(caller),
      [this](Tx& tx) {
        tx.table_changed = true;
        spdlog::info("table {}: created by {} ({}{})", label(), creator_, game_->spec(),
                     board_ ? ", board" : "");
        if (tx.caller.client) add_watcher(tx.caller.client, tx.caller.user);
        if (board_) {
          tx.all(GameCreated{table_view(), title(), page("New", *state_, 0)});
        } else {
          tx.reply(TableShown{table_view(), "Table " + label() + " is open: /join to sit down, " +
                                                "/option NAME=VALUE, /start."});
        }
      },
      std::move(done));
}

void Table::handle(Caller caller, Command command, Done done) {
  post(
      std::move(caller), [this, c = std::move(command)](Tx& tx) { on_command(tx, c); },
      std::move(done));
}

void Table::stop() {
  boost::asio::post(strand_, [self = shared_from_this()] {
    self->stopped_ = true;
    self->timer_.cancel();
    self->retry_timer_.cancel();
  });
}

void Table::fetch_record(std::function<void(std::string)> reply) {
  boost::asio::post(strand_, [self = shared_from_this(), reply = std::move(reply)] {
    if (!self->initial_) {
      reply("");
      return;
    }
    RecordHeader header;
    header.seats = self->players_by_game_seat();
    header.date = utc_date(self->started_ms_);
    // The table's result when it is not the rules' own: a resignation, time, agreement, or a
    // seat that resigned a game of 3+ seats (its share went to the others).
    if (self->status_ == TableStatus::kOver &&
        (self->reason_ != "rules" || !self->resigned_.empty())) {
      header.result = self->result_;
    }
    header.extra_tags.emplace_back("Board", std::to_string(self->number_));
    if (!self->resigned_.empty()) {
      std::vector<std::string> labels;
      for (int ts : self->resigned_) {
        labels.push_back(self->game_->seat_label(self->game_seat_of_table_seat(ts)));
      }
      header.extra_tags.emplace_back("Resigned", join(labels, ","));
    }
    if (!self->reason_.empty()) header.extra_tags.emplace_back("Termination", self->reason_);
    // Only what is on disk: a move still being written (and maybe refused) is not shown yet.
    std::vector<Move> moves;
    for (const auto& p : self->committed_.moves) moves.push_back(p.move);
    std::string text;  // "" (no record) if writing it fails: the table goes on
    try {
      text = write_record(*self->initial_, moves, header);
    } catch (const std::exception& e) {
      spdlog::error("table {}: cannot write its record: {}", self->label(), e.what());
    }
    reply(text);
  });
}

// ---------------------------------------------------------------------------------------------
// Queries

std::string Table::label() const { return game_name_ + " " + std::to_string(number_); }

std::string Table::title() const {
  return game_->info().title + " Board " + std::to_string(number_);
}

int Table::table_seat_of(const std::string& user) const {
  if (user.empty()) return -1;
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (seats_[s].kind == SeatKind::kUser && same_name(seats_[s].name, user))
      return static_cast<int>(s);
  }
  return -1;
}

int Table::game_seat_of_table_seat(int table_seat) const {
  for (std::size_t g = 0; g < order_.size(); ++g) {
    if (order_[g] == table_seat) return static_cast<int>(g);
  }
  return table_seat;
}

int Table::seat_to_move() const {
  if (status_ != TableStatus::kPlaying || !state_) return -1;
  const int g = state_->current_seat();
  if (g == kTerminalSeat) return -1;
  return order_.empty() ? g : order_[static_cast<std::size_t>(g)];
}

std::string Table::owner_name(int table_seat) const {
  if (table_seat < 0 || table_seat >= static_cast<int>(seats_.size())) return "";
  const SeatOwner& s = seats_[static_cast<std::size_t>(table_seat)];
  if (s.kind == SeatKind::kCpu) return "cpu:" + s.name;
  return s.name;
}

std::vector<std::string> Table::players_by_game_seat() const {
  std::vector<std::string> out;
  for (int g = 0; g < game_->num_seats(); ++g) {
    int t = order_.empty() ? g : order_[static_cast<std::size_t>(g)];
    out.push_back(owner_name(t));
  }
  return out;
}

bool Table::is_watching(const std::shared_ptr<Client>& client) const {
  for (const auto& w : watchers_) {
    if (w.client.lock() == client) return true;
  }
  return false;
}

bool Table::add_watcher(const std::shared_ptr<Client>& client, const std::string& user) {
  if (!client || is_watching(client)) return false;
  watchers_.push_back({client, user});
  client->note_watching(shared_from_this());
  return true;
}

void Table::watcher_closed(std::shared_ptr<Client> client) {
  // The server's own action: no caller to answer (the connection is gone).
  post(
      Caller{},
      [this, client](Tx& tx) {
        const auto before = spectators();
        remove_watcher(client);
        const auto after = spectators();
        for (const auto& name : before) {
          // The user may still follow the table from another connection.
          if (std::find(after.begin(), after.end(), name) != after.end()) continue;
          tx.all(spectators_changed(SpectatorsChanged::What::kDisconnected, name));
        }
      },
      nullptr);
}

void Table::remove_watcher(const std::shared_ptr<Client>& client) {
  watchers_.erase(std::remove_if(watchers_.begin(), watchers_.end(),
                                 [&](const auto& w) {
                                   auto c = w.client.lock();
                                   return !c || c == client;
                                 }),
                  watchers_.end());
}

std::vector<std::string> Table::spectators() const {
  std::set<std::string> names;
  for (const auto& w : watchers_) {
    if (w.user.empty() || w.client.expired() || table_seat_of(w.user) >= 0) continue;
    names.insert(w.user);
  }
  return {names.begin(), names.end()};
}

bool Table::everyone_moved() const {
  std::set<int> moved;
  for (const auto& p : moves_) moved.insert(p.seat);
  return static_cast<int>(moved.size()) >= game_->num_seats();
}

std::vector<int> Table::human_seats_except(int table_seat) const {
  std::vector<int> out;
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (static_cast<int>(s) != table_seat && seats_[s].kind == SeatKind::kUser &&
        has_turns_left(static_cast<int>(s))) {
      out.push_back(static_cast<int>(s));
    }
  }
  return out;
}

}  // namespace plateau::server
