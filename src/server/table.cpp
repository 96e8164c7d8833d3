// Over 600 lines: the table engine's command handlers, game flow and presentation still live
// together here; issue 13 (server core) splits them into a typed table engine and renderers.
// The strand plumbing (table_tx.cpp), restore (table_restore.cpp), access (table_access.cpp),
// queues (table_queue.cpp) and guest clean-up (table_discard.cpp) are already out.
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
#include "server/lobby.h"
#include "server/rating_policy.h"

namespace plateau::server {

using nlohmann::json;

namespace {

constexpr std::size_t kChatMaxBytes = 1000;

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

std::string utc_time(std::int64_t ms) {
  std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

std::string utc_date(std::int64_t ms) { return utc_time(ms).substr(0, 10); }

TableStatus parse_status(const std::string& s) {
  if (s == "playing") return TableStatus::kPlaying;
  if (s == "over") return TableStatus::kOver;
  if (s == "declined") return TableStatus::kDeclined;
  return TableStatus::kSetup;
}

bool same_name(const std::string& a, const std::string& b) { return to_lower(a) == to_lower(b); }

}  // namespace

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

Table::Table(Lobby& lobby, std::int64_t id, std::shared_ptr<const Game> game, int number,
             std::string creator, std::vector<SeatOwner> seats, ClockSettings clock,
             std::int64_t now_ms)
    : lobby_(lobby),
      strand_(boost::asio::make_strand(lobby.io())),
      timer_(strand_),
      id_(id),
      game_name_(game->name()),
      number_(number),
      created_ms_(now_ms),
      game_(std::move(game)),
      creator_(std::move(creator)),
      clock_(clock),
      retry_timer_(strand_) {
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

Table::Table(Lobby& lobby, const store::TableRow& row, const std::vector<store::MoveRow>& moves,
             const std::vector<store::ChatRow>& chat)
    : lobby_(lobby),
      strand_(boost::asio::make_strand(lobby.io())),
      timer_(strand_),
      id_(row.id),
      game_name_(row.game),
      number_(row.number),
      created_ms_(row.created_ms),
      retry_timer_(strand_) {
  try {
    load_data_json(row.data);
    for (const auto& m : moves) {
      if (!state_) throw std::runtime_error("moves stored for a table that has not started");
      Move move = state_->parse_move(m.move);
      state_->apply(move);
      moves_.push_back({move, m.move, m.seat, m.automatic, m.at_ms});
    }
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot restore table " + row.game + " " + std::to_string(row.number) +
                             ": " + e.what());
  }
  std::size_t first = chat.size() > kChatKept ? chat.size() - kChatKept : 0;
  chat_.assign(chat.begin() + static_cast<std::ptrdiff_t>(first), chat.end());
  bots_.resize(seats_.size());
  committed_ = {true, row.data, moves_, chat_};
  refresh_summary();
}

// ---------------------------------------------------------------------------------------------
// Persistence

std::string Table::data_json() const {
  json j;
  j["board"] = board_;
  j["creator"] = creator_;
  j["options"] = game_->options_string();
  j["status"] = status_name(status_);
  j["rated"] = rated_;
  json seats = json::array();
  for (const auto& s : seats_) seats.push_back({s.kind, s.name});
  j["seats"] = seats;
  j["order"] = order_;
  j["initial"] = (initial_ && !initial_->equals(*game_->initial_state())) ? initial_->serialize()
                                                                          : std::string();
  j["result"] = result_;
  j["reason"] = reason_;
  j["declined_by"] = declined_by_;
  j["returns"] = returns_;
  j["rating_lines"] = rating_lines_;
  if (request_) {
    j["request"] = {
        {"kind", request_->kind},
        {"by", request_->by},
        {"accepted", std::vector<int>(request_->accepted.begin(), request_->accepted.end())}};
  }
  j["queued"] = queued_;
  j["queued_resign"] = queued_resign_;
  j["flags"] = table_flags_;
  j["invited"] = invited_;
  j["record_key"] = record_key_;
  j["clock"] = clock_.to_string();
  j["bank"] = bank_ms_;
  j["turn_started"] = turn_started_ms_;
  j["started"] = started_ms_;
  j["ended"] = ended_ms_;
  json extra = json::array();
  for (const auto& e : extra_entries_) extra.push_back({e.text, e.seat});
  j["extra"] = extra;
  return json_text(j);
}

void Table::load_data_json(const std::string& text) {
  // Every durable member is assigned (or cleared) here: roll_back() reloads a live table.
  json j = json::parse(text);
  seats_.clear();
  extra_entries_.clear();
  request_.reset();
  initial_.reset();
  state_.reset();
  moves_.clear();
  board_ = j.value("board", false);
  creator_ = j.value("creator", std::string());
  game_ = make_game(game_name_, j.value("options", std::string()));
  status_ = parse_status(j.value("status", std::string("setup")));
  rated_ = j.value("rated", false);
  for (const auto& s : j.at("seats")) seats_.push_back({s.at(0), s.at(1)});
  order_ = j.value("order", std::vector<int>());
  if (status_ != TableStatus::kSetup) {
    const std::string initial = j.value("initial", std::string());
    initial_ = initial.empty() ? game_->initial_state() : game_->parse_state(initial);
    state_ = initial_->clone();
  }
  result_ = j.value("result", std::string());
  reason_ = j.value("reason", std::string());
  declined_by_ = j.value("declined_by", std::string());
  returns_ = j.value("returns", std::vector<double>());
  rating_lines_ = j.value("rating_lines", std::vector<std::string>());
  if (j.contains("request") && j["request"].is_object()) {
    Request r;
    r.kind = j["request"].at("kind");
    r.by = j["request"].at("by");
    for (int s : j["request"].at("accepted")) r.accepted.insert(s);
    request_ = r;
  }
  queued_ = j.value("queued", std::map<std::string, std::string>());
  queued_resign_ = j.value("queued_resign", std::set<std::string>());
  table_flags_ = j.value("flags", std::map<std::string, std::string>());
  invited_ = j.value("invited", std::set<std::string>());
  record_key_ = j.value("record_key", std::string());
  if (table_flags_.count("invisible") && record_key_.empty()) record_key_ = new_record_key();
  clock_ = parse_clock(j.value("clock", std::string("none")));
  bank_ms_ = j.value("bank", std::vector<std::int64_t>());
  turn_started_ms_ = j.value("turn_started", std::int64_t{0});
  started_ms_ = j.value("started", std::int64_t{0});
  ended_ms_ = j.value("ended", std::int64_t{0});
  for (const auto& e : j.value("extra", json::array())) {
    extra_entries_.push_back({e.at(0), e.at(1), false});
  }
}

// The strand plumbing (post, run, pump, execute, finish, deliver, roll_back) is in table_tx.cpp.

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
  s.access = access();
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
          Event e{"challenge", table_event("").data, page("New", *state_, 0)};
          e.data["title"] = "New " + title();
          tx.all(e);
        } else {
          tx.reply(table_event("Table " + label() + " is open: /join to sit down, " +
                               "/option NAME=VALUE, /start."));
        }
      },
      std::move(done));
}

void Table::import_finished(const std::vector<std::string>& moves,
                            const std::string& unfinished_reason, Done done) {
  // Replay first, so an illegal move leaves nothing behind.
  auto initial = game_->initial_state();
  auto state = initial->clone();
  std::vector<Move> parsed;
  for (const std::string& text : moves) {
    if (state->is_terminal()) throw RuleError("move after the end of the game: " + text);
    parsed.push_back(state->parse_move(text));
    state->apply(parsed.back());
  }
  post(
      Caller{},
      [this, parsed = std::move(parsed), unfinished_reason](Tx& tx) {
        const int n = game_->num_seats();
        order_.clear();
        for (int g = 0; g < n; ++g) order_.push_back(g);
        rated_ = false;
        initial_ = game_->initial_state();
        state_ = initial_->clone();
        status_ = TableStatus::kPlaying;
        started_ms_ = turn_started_ms_ = Lobby::now_ms();
        tx.table_changed = true;
        // The moves' rows refer to the table's row, so it goes first (finish() rewrites it).
        tx.batch.put_table({id_, game_name_, number_, data_json(), created_ms_});
        for (const Move& m : parsed) play(tx, m, state_->current_seat(), false);
        if (state_->is_terminal()) {
          end_game(tx, state_->returns(), "rules");
          return;
        }
        status_ = TableStatus::kOver;
        ended_ms_ = Lobby::now_ms();
        reason_ = unfinished_reason;
        result_ = "*";
        spdlog::info("table {}: imported unfinished ({})", label(), reason_);
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
    if (self->status_ == TableStatus::kOver && self->reason_ != "rules") {
      header.result = self->result_;
    }
    header.extra_tags.emplace_back("Board", std::to_string(self->number_));
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
    if (seats_[s].kind == "user" && same_name(seats_[s].name, user)) return static_cast<int>(s);
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
  if (s.kind == "cpu") return "cpu:" + s.name;
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
          tx.all(spectators_event(name + " stopped watching " + label() + " (disconnected)."));
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

bool Table::everyone_moved() const {
  std::set<int> moved;
  for (const auto& p : moves_) moved.insert(p.seat);
  return static_cast<int>(moved.size()) >= game_->num_seats();
}

std::vector<int> Table::human_seats_except(int table_seat) const {
  std::vector<int> out;
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (static_cast<int>(s) != table_seat && seats_[s].kind == "user") {
      out.push_back(static_cast<int>(s));
    }
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
    if (request_->kind == "draw") return by + " has proposed a draw; waiting for " + who + ".";
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

void Table::require_user(const Tx& tx) const {
  if (tx.caller.user.empty()) {
    throw CommandError("log in first: login NAME PASSWORD, register NAME PASSWORD or guest");
  }
}

void Table::require_playing() const {
  switch (status_) {
    case TableStatus::kSetup:
      throw CommandError("the game at " + label() + " has not started");
    case TableStatus::kOver:
      throw CommandError("the game has ended (" + label() + ")");
    case TableStatus::kDeclined:
      throw CommandError(label() + " was declined");
    case TableStatus::kPlaying:
      break;
  }
}

// ---------------------------------------------------------------------------------------------
// Commands

void Table::on_command(Tx& tx, const Command& c) {
  if (discarded_) throw CommandError("no " + game_name_ + " board " + std::to_string(number_));
  require_reachable(tx, c);
  run_command(tx, c);
  drop_unreachable_watchers();
}

void Table::run_command(Tx& tx, const Command& c) {
  switch (c.verb) {
    case Verb::kTable: {
      const bool added = add_watcher(tx.caller.client, tx.caller.user);
      tx.reply(table_event("You are at " + label() + ". " + status_line()));
      if (added) announce_spectator(tx);
      return;
    }
    case Verb::kJoin:
      return cmd_join(tx, c);
    case Verb::kLeave:
      return cmd_leave(tx);
    case Verb::kOption:
      return cmd_option(tx, c);
    case Verb::kStart:
      return cmd_start(tx, true);
    case Verb::kStartNoSave:
      return cmd_start(tx, false);
    case Verb::kWatch:
      return cmd_watch(tx);
    case Verb::kSay:
    case Verb::kChat:
      return cmd_say(tx, c.text);
    case Verb::kReset:
      return cmd_reset(tx);
    case Verb::kInfo: {
      std::vector<std::string> parts;
      for (const auto& [k, v] : game_->options().items()) parts.push_back(k + "=" + v);
      tx.reply(table_event(label() + " (" + status_name(status_) + "): " + join(parts, ", ") +
                           "; clock " + clock_.to_string() + (rated_ ? "; rated" : "")));
      return;
    }
    case Verb::kMove:
      return cmd_move(tx, c);
    case Verb::kQueue:
      return cmd_queue(tx, c);
    case Verb::kResign:
      return cmd_resign(tx);
    case Verb::kPropose:
      return cmd_request(tx, "draw");
    case Verb::kUndo:
      return cmd_request(tx, "undo");
    case Verb::kAccept:
      return cmd_answer(tx, true);
    case Verb::kReject:
      return cmd_answer(tx, false);
    case Verb::kShow:
      return cmd_show(tx, c);
    case Verb::kSteps:
      return cmd_steps(tx, c);
    case Verb::kInvite:
      return cmd_invite(tx, c);
    default:
      throw CommandError(std::string(verb_name(c.verb)) + " is not a table command");
  }
}

namespace {

int parse_seat(const Game& game, std::string_view text) {
  const int n = game.num_seats();
  std::string t = to_lower(text);
  if (!t.empty() && std::all_of(t.begin(), t.end(), ::isdigit) && t.size() < 4) {
    int s = std::stoi(t);
    if (s >= 1 && s <= n) return s - 1;
  }
  for (int s = 0; s < n; ++s) {
    if (to_lower(game.seat_label(s)) == t) return s;
  }
  throw CommandError("no seat '" + std::string(text.substr(0, 20)) + "'; seats are 1.." +
                     std::to_string(n));
}

}  // namespace

void Table::cmd_join(Tx& tx, const Command& c) {
  require_user(tx);
  std::string level;
  std::optional<int> seat;
  if (c.args.size() == 2) {
    if (!starts_with(to_lower(c.args[0]), "cpu:")) {
      throw CommandError("usage: /join [SEAT] or /join cpu:LEVEL SEAT");
    }
    level = to_lower(c.args[0].substr(4));
    seat = parse_seat(*game_, c.args[1]);
  } else if (c.args.size() == 1) {
    if (starts_with(to_lower(c.args[0]), "cpu:")) {
      throw CommandError("usage: /join cpu:LEVEL SEAT (say which seat)");
    }
    seat = parse_seat(*game_, c.args[0]);
  }
  const int mine = table_seat_of(tx.caller.user);
  if (status_ == TableStatus::kPlaying) {
    if (!level.empty()) throw CommandError("the game is running; seats cannot change");
    if (mine < 0) throw CommandError("the game at " + label() + " has started; /watch instead");
    if (seat && *seat != mine) {
      throw CommandError("seat " + std::to_string(*seat + 1) + " belongs to " + owner_name(*seat));
    }
    add_watcher(tx.caller.client, tx.caller.user);
    tx.all(table_event(tx.caller.user + " is back at seat " + std::to_string(mine + 1) + "."));
    tx.reply(board_event("Summary"));
    return;
  }
  if (status_ != TableStatus::kSetup) {
    throw CommandError("the game at " + label() + " is over" +
                       (board_ ? "" : "; /reset to set up a new one"));
  }
  if (!level.empty()) {
    if (!is_bot_name(level)) {
      try {
        make_bot(level, 0);
      } catch (const std::exception& e) {
        throw CommandError(std::string("bad CPU level: ") + e.what());
      }
      throw CommandError("unknown CPU level '" + level + "'");
    }
    if (table_flags_.count("host") && !same_name(tx.caller.user, creator_)) {
      throw CommandError("only the table chief (" + creator_ + ") may seat a computer player");
    }
    if (mine < 0 && !same_name(tx.caller.user, creator_)) {
      throw CommandError("sit down first (/join) to seat a computer player");
    }
    if (!seats_[*seat].kind.empty()) {
      throw CommandError("seat " + std::to_string(*seat + 1) + " is taken by " + owner_name(*seat));
    }
    seats_[*seat] = {"cpu", level};
    bots_[*seat].reset();
    tx.table_changed = true;
    add_watcher(tx.caller.client, tx.caller.user);
    tx.all(table_event("cpu:" + level + " takes seat " + std::to_string(*seat + 1) + "."));
    return;
  }
  if (mine >= 0) throw CommandError("you already sit in seat " + std::to_string(mine + 1));
  if (!seat) {
    for (std::size_t s = 0; s < seats_.size(); ++s) {
      if (seats_[s].kind.empty()) {
        seat = static_cast<int>(s);
        break;
      }
    }
    if (!seat) throw CommandError("the table is full");
  } else if (!seats_[*seat].kind.empty()) {
    throw CommandError("seat " + std::to_string(*seat + 1) + " is taken by " + owner_name(*seat));
  }
  seats_[*seat] = {"user", tx.caller.user};
  tx.table_changed = true;
  add_watcher(tx.caller.client, tx.caller.user);
  spdlog::info("table {}: {} takes seat {}", label(), tx.caller.user, *seat + 1);
  tx.all(table_event(tx.caller.user + " takes seat " + std::to_string(*seat + 1) + "."));
}

void Table::cmd_leave(Tx& tx) {
  require_user(tx);
  const int mine = table_seat_of(tx.caller.user);
  if (status_ == TableStatus::kSetup && mine >= 0) {
    seats_[mine] = {};
    tx.table_changed = true;
    tx.all(table_event(tx.caller.user + " leaves seat " + std::to_string(mine + 1) + "."));
    remove_watcher(tx.caller.client);
    return;
  }
  if (status_ == TableStatus::kPlaying && mine >= 0) {
    tx.all(table_event(tx.caller.user + " has left; seat " + std::to_string(mine + 1) +
                       " stays reserved (/join " + std::to_string(mine + 1) + " to return)."));
    remove_watcher(tx.caller.client);
    return;
  }
  if (!is_watching(tx.caller.client)) throw CommandError("you are not at " + label());
  const bool was_spectator = !tx.caller.user.empty() && mine < 0;
  remove_watcher(tx.caller.client);
  tx.reply(ok_event("You left " + label() + "."));
  if (was_spectator) {
    tx.all(spectators_event(tx.caller.user + " stopped watching " + label() + "."));
  }
}

void Table::cmd_option(Tx& tx, const Command& c) {
  require_user(tx);
  if (status_ != TableStatus::kSetup) {
    throw CommandError("options can change only before the start");
  }
  const bool chief_only = table_flags_.count("host") > 0;
  if (chief_only && !same_name(tx.caller.user, creator_)) {
    throw CommandError("only the table chief (" + creator_ + ") may change options");
  }
  if (table_seat_of(tx.caller.user) < 0 && !same_name(tx.caller.user, creator_)) {
    throw CommandError("sit down first (/join) to change options");
  }
  // Validate everything first, then change.
  std::map<std::string, std::string> game_options;
  for (const auto& [k, v] : game_->options().items()) game_options[k] = v;
  auto flags = table_flags_;
  ClockSettings clock = clock_;
  std::vector<std::string> done;
  for (const auto& [name, value] : c.params) {
    if (name == "clock") {
      try {
        clock = parse_clock(value);
      } catch (const std::invalid_argument& e) {
        throw CommandError(e.what());
      }
    } else if (name == "invisible" || name == "drawseat" || name == "host") {
      const std::string v = to_lower(value);
      if (v.empty() || v == "on" || v == "yes") {
        flags[name] = "on";
      } else if (v == "off" || v == "no") {
        flags.erase(name);
      } else {
        throw CommandError("option " + name + " takes on or off");
      }
    } else if (name == "result") {
      flags[name] = value;
    } else if (game_options.count(name)) {
      if (value.empty())
        throw CommandError("option " + name + " needs a value: /option " + name + "=VALUE");
      game_options[name] = value;
    } else {
      std::vector<std::string> names;
      for (const auto& [k, v] : game_->options().items()) names.push_back(k);
      for (const char* t : {"clock", "invisible", "drawseat", "host", "result"}) names.push_back(t);
      throw CommandError("unknown option '" + name + "' for " + game_name_ +
                         "; options are: " + join(names, ", "));
    }
    done.push_back(value.empty() ? name : name + "=" + value);
  }
  std::vector<std::string> parts;
  for (const auto& [k, v] : game_options) parts.push_back(k + "=" + v);
  std::shared_ptr<const Game> game;
  try {
    game = make_game(game_name_, join(parts, ","));
  } catch (const OptionError& e) {
    throw CommandError(e.what());
  }
  const std::size_t n = static_cast<std::size_t>(game->num_seats());
  for (std::size_t s = n; s < seats_.size(); ++s) {
    if (!seats_[s].kind.empty()) {
      throw CommandError("seat " + std::to_string(s + 1) + " is taken; free it before setting " +
                         std::to_string(n) + " seats");
    }
  }
  game_ = game;
  seats_.resize(n);
  bots_.resize(n);
  table_flags_ = flags;
  if (table_flags_.count("invisible") && record_key_.empty()) record_key_ = new_record_key();
  clock_ = clock;
  tx.table_changed = true;
  tx.all(table_event(tx.caller.user + " sets " + join(done, ", ") + "."));
}

void Table::cmd_start(Tx& tx, bool rated) {
  require_user(tx);
  if (status_ != TableStatus::kSetup) {
    throw CommandError(status_ == TableStatus::kPlaying ? "the game is already running"
                                                        : "the game is over; /reset first");
  }
  if (table_seat_of(tx.caller.user) < 0) throw CommandError("only a seated player may /start");
  if (table_flags_.count("host") && !same_name(tx.caller.user, creator_)) {
    throw CommandError("only the table chief (" + creator_ + ") may start");
  }
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (seats_[s].kind.empty()) {
      throw CommandError("seat " + std::to_string(s + 1) + " is free: /join or /join cpu:LEVEL " +
                         std::to_string(s + 1));
    }
  }
  const int n = game_->num_seats();
  std::random_device rd;
  std::mt19937 rng(rd());
  order_.clear();
  for (int g = 0; g < n; ++g) order_.push_back(g);
  // Who sits in game seat 1 (which moves first) is the table's choice: the game's seat-order
  // option (Game::first_seat) or BSW's `drawseat`.
  if (table_flags_.count("drawseat")) {
    std::shuffle(order_.begin(), order_.end(), rng);
  } else {
    const int first = game_->first_seat(rng());
    for (int g = 0; g < n; ++g) order_[g] = (first + g) % n;
  }
  bool guests = false;
  for (const auto& s : seats_) {
    if (s.kind == "user" && !lobby_.is_account(s.name)) guests = true;
  }
  rated_ = rated && !guests && options_are_rated(*game_);
  initial_ = game_->initial_state();
  state_ = initial_->clone();
  moves_.clear();
  extra_entries_.clear();
  result_.clear();
  reason_.clear();
  returns_.clear();
  rating_lines_.clear();
  request_.reset();
  queued_.clear();
  queued_resign_.clear();
  status_ = TableStatus::kPlaying;
  started_ms_ = turn_started_ms_ = Lobby::now_ms();
  bank_ms_.assign(static_cast<std::size_t>(n), clock_.base_ms);
  tx.table_changed = true;
  spdlog::info("table {}: game starts ({}, {})", label(), join(players_by_game_seat(), " vs "),
               rated_ ? "rated" : "unrated");
  Event e = board_event("Summary");
  e.type = "start";
  e.data["players"] = players_by_game_seat();
  e.data["rated"] = rated_;
  e.data["text"] = "Game " + label() + " starts: " + join(players_by_game_seat(), " vs ") +
                   (rated_ ? " (rated)." : " (unrated).");
  tx.all(e);
}

void Table::cmd_watch(Tx& tx) {
  const bool added = add_watcher(tx.caller.client, tx.caller.user);
  Event e = board_event("Summary");
  e.data["text"] = "You are watching " + label() + ".";
  tx.reply(e);
  if (added) announce_spectator(tx);
}

void Table::announce_spectator(Tx& tx) {
  // Players following their own table, and connections not logged in, are not news.
  if (tx.caller.user.empty() || table_seat_of(tx.caller.user) >= 0) return;
  tx.all(spectators_event(tx.caller.user + " is watching " + label() + "."));
}

void Table::cmd_say(Tx& tx, const std::string& text) {
  require_user(tx);
  if (text.size() > kChatMaxBytes) {
    throw CommandError("chat line too long (at most " + std::to_string(kChatMaxBytes) + " bytes)");
  }
  store::ChatRow row{id_, Lobby::now_ms(), tx.caller.user, text};
  tx.batch.add_chat(row);
  chat_.push_back(row);
  if (chat_.size() > kChatKept) chat_.erase(chat_.begin());
  json data = {{"game", game_name_},
               {"board", number_},
               {"user", tx.caller.user},
               {"message", text},
               {"text", "[" + label() + "] " + tx.caller.user + ": " + text}};
  tx.all(Event{"chat", std::move(data), {}});
}

void Table::cmd_reset(Tx& tx) {
  require_user(tx);
  if (board_) throw CommandError("boards cannot be reset; challenge again");
  if (status_ != TableStatus::kOver && status_ != TableStatus::kDeclined) {
    throw CommandError("only a finished game can be reset");
  }
  if (table_seat_of(tx.caller.user) < 0 && !same_name(tx.caller.user, creator_)) {
    throw CommandError("only the players may reset the table");
  }
  status_ = TableStatus::kSetup;
  tx.batch.delete_moves_from(id_, 1);
  moves_.clear();
  extra_entries_.clear();
  initial_.reset();
  state_.reset();
  order_.clear();
  result_.clear();
  reason_.clear();
  returns_.clear();
  rating_lines_.clear();
  tx.table_changed = true;
  tx.all(table_event(tx.caller.user + " resets " + label() + "."));
}

void Table::cmd_move(Tx& tx, const Command& c) {
  require_user(tx);
  require_playing();
  const int mine = table_seat_of(tx.caller.user);
  if (mine < 0) throw CommandError("you do not play at " + label());
  const int to_move = seat_to_move();
  if (to_move != mine)
    throw CommandError("it is not your turn: it is " + owner_name(to_move) + "'s turn");
  const int next_ply = static_cast<int>(moves_.size()) + 1;
  if (c.ply_check && *c.ply_check != next_ply) {
    throw CommandError("move #" + std::to_string(*c.ply_check) +
                       " does not match: the next move is #" + std::to_string(next_ply));
  }
  if (clock_.enabled() &&
      Lobby::now_ms() >
          turn_started_ms_ + turn_allowance_ms(clock_, bank_ms_[state_->current_seat()])) {
    on_clock(tx);
    tx.reply(error_event("your time has run out"));
    return;
  }
  Move move;
  try {
    move = state_->parse_move(c.args.at(0));
  } catch (const RuleError& e) {
    throw CommandError("illegal move '" + c.args.at(0).substr(0, 60) + "': " + e.what());
  }
  play(tx, move, state_->current_seat(), false);
  after_move(tx);
}

void Table::cmd_queue(Tx& tx, const Command& c) {
  require_user(tx);
  require_playing();
  const int mine = table_seat_of(tx.caller.user);
  if (mine < 0) throw CommandError("you do not play at " + label());
  if (seat_to_move() == mine) return cmd_move(tx, c);
  if (c.args.at(0).size() > 200) throw CommandError("queued move too long");
  // The #n stays with the move: play_queued() plays it only at ply n.
  const std::string text =
      c.args.at(0) + (c.ply_check ? "#" + std::to_string(*c.ply_check) : std::string());
  queued_[to_lower(tx.caller.user)] = text;
  tx.table_changed = true;
  tx.reply(Event{
      "queued",
      {{"game", game_name_},
       {"board", number_},
       {"move", text},
       {"text", "Queued " + text + " at " + label() + "; it will be played when your turn comes."}},
      {}});
}

void Table::cmd_resign(Tx& tx) {
  require_user(tx);
  require_playing();
  const int mine = table_seat_of(tx.caller.user);
  if (mine < 0) throw CommandError("you do not play at " + label());
  if (!everyone_moved() || seat_to_move() == mine) {
    resign_seat(tx, mine, "Resign");
    return;
  }
  // Out of turn: queued until the sender's next turn; sending it again cancels it.
  const std::string key = to_lower(tx.caller.user);
  tx.table_changed = true;
  if (queued_resign_.erase(key)) {
    tx.reply(ok_event("Your resignation at " + label() + " is cancelled."));
  } else {
    queued_resign_.insert(key);
    tx.reply(ok_event("Your resignation at " + label() +
                      " takes effect at your next turn (resign again to cancel)."));
  }
}

void Table::cmd_request(Tx& tx, const std::string& kind) {
  require_user(tx);
  require_playing();
  const int mine = table_seat_of(tx.caller.user);
  if (mine < 0) throw CommandError("you do not play at " + label());
  if (request_) throw CommandError("a " + request_->kind + " request is already pending");
  if (kind == "undo" && moves_.empty()) throw CommandError("there is no move to undo");
  if (human_seats_except(mine).empty()) {
    throw CommandError("no one can accept: the other seats are computer players");
  }
  request_ = Request{kind, mine, {mine}};
  tx.table_changed = true;
  Event e{"request",
          {{"game", game_name_},
           {"board", number_},
           {"kind", kind},
           {"by", tx.caller.user},
           {"text", label() + ": " + status_line()}},
          {}};
  tx.all(e);
}

void Table::cmd_answer(Tx& tx, bool accept) {
  require_user(tx);
  require_playing();
  const int mine = table_seat_of(tx.caller.user);
  if (mine < 0) throw CommandError("you do not play at " + label());
  if (!request_) throw CommandError("there is no draw offer or undo request to answer");
  if (request_->by == mine) throw CommandError("you cannot answer your own request");
  const std::string kind = request_->kind;
  tx.table_changed = true;
  if (!accept) {
    request_.reset();
    tx.all(Event{"request",
                 {{"game", game_name_},
                  {"board", number_},
                  {"kind", kind},
                  {"answer", "reject"},
                  {"by", tx.caller.user},
                  {"text", label() + ": " + tx.caller.user + " rejects the " +
                               (kind == "draw" ? "draw offer." : "undo request.")}},
                 {}});
    return;
  }
  request_->accepted.insert(mine);
  for (int s : human_seats_except(request_->by)) {
    if (!request_->accepted.count(s)) {
      tx.all(Event{"request",
                   {{"game", game_name_},
                    {"board", number_},
                    {"kind", kind},
                    {"answer", "accept"},
                    {"by", tx.caller.user},
                    {"text", label() + ": " + tx.caller.user + " accepts; " + status_line()}},
                   {}});
      return;
    }
  }
  request_.reset();
  if (kind == "draw") {
    const int n = game_->num_seats();
    end_game(tx, std::vector<double>(static_cast<std::size_t>(n), 1.0 / n), "agreement");
    return;
  }
  undo_last(tx);
  Event e = board_event("Summary");
  e.data["text"] = label() + ": the last move was taken back.";
  tx.all(e);
  clear_queued(tx, "the last move was taken back");
}

void Table::cmd_show(Tx& tx, const Command& c) {
  if (!state_) {
    tx.reply(table_event(label() + ": " + status_line()));
    return;
  }
  if (c.ply_check) {
    const int n = *c.ply_check;
    if (n < 0 || n > static_cast<int>(moves_.size())) {
      throw CommandError("no ply " + std::to_string(n) + " at " + label() + "; plies are 0.." +
                         std::to_string(moves_.size()));
    }
    auto shown = initial_->clone();
    for (int i = 0; i < n; ++i) shown->apply(moves_[static_cast<std::size_t>(i)].move);
    json data = {{"game", game_name_},
                 {"board", number_},
                 {"ply", n},
                 {"position", shown->serialize()},
                 {"text", ""}};
    tx.reply(Event{"board", std::move(data), page("Summary", *shown, n)});
    return;
  }
  tx.reply(board_event("Summary"));
}

void Table::cmd_steps(Tx& tx, const Command& c) {
  require_playing();
  StepChoices choices;
  std::string move;
  try {
    choices = state_->next_steps(c.args);
    if (choices.complete) move = state_->move_to_string(state_->move_from_steps(c.args));
  } catch (const RuleError& e) {
    throw CommandError("bad steps '" + join(c.args, " ").substr(0, 80) + "': " + e.what());
  }
  std::string text =
      label() + ": after '" + join(c.args, " ") + "': " +
      (choices.next.empty() ? std::string("no further step") : "next " + join(choices.next, " "));
  if (choices.complete) text += "; complete: " + move;
  json data = {{"game", game_name_}, {"board", number_},     {"ply", moves_.size()},
               {"prefix", c.args},   {"next", choices.next}, {"complete", choices.complete},
               {"text", text}};
  if (choices.complete) data["move"] = move;
  tx.reply(Event{"steps", std::move(data), {}});
}

// ---------------------------------------------------------------------------------------------
// Game flow

void Table::play(Tx& tx, const Move& move, int seat, bool automatic) {
  const std::int64_t now = Lobby::now_ms();
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
  Event e = move_event(p, ply);
  e.page = kPageAtEnd;  // the board page as it stands once the whole action is done
  tx.all(std::move(e));
}

void Table::after_move(Tx& tx) {
  for (int guard = 0; guard < 10000; ++guard) {
    if (state_->is_terminal()) {
      end_game(tx, state_->returns(), "rules");
      return;
    }
    const int ts = seat_to_move();
    const SeatOwner& owner = seats_[static_cast<std::size_t>(ts)];
    if (owner.kind != "user") return;
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
  ended_ms_ = Lobby::now_ms();
  request_.reset();
  rating_lines_.clear();
  if (game_->num_seats() == 2) {
    rating_lines_.push_back(
        "No result and no rating change: the game ended before every "
        "player had moved.");
  }
  tx.table_changed = true;
  spdlog::info("table {}: no result ({} by {})", label(), reason_, declined_by_);
  Event e = board_event("Summary");
  e.type = "gameover";
  e.data["result"] = "";
  e.data["reason"] = reason_;
  e.data["ratings"] = rating_lines_;
  e.data["text"] = label() + ": " + status_line();
  tx.all(e);
  clear_queued(tx, "the game is over");
}

void Table::end_game(Tx& tx, std::vector<double> returns, const std::string& reason) {
  status_ = TableStatus::kOver;
  ended_ms_ = Lobby::now_ms();
  reason_ = reason;
  returns_ = std::move(returns);
  result_ = format_result(returns_);
  request_.reset();
  rating_lines_.clear();
  const auto players = players_by_game_seat();
  if (game_->num_seats() == 2) {
    bool rateable = rated_;
    for (std::size_t t = 0; t < seats_.size(); ++t) {
      if (seats_[t].kind == "user" && !lobby_.is_account(seats_[t].name)) rateable = false;
    }
    if (rateable) {
      rating_lines_ = lobby_.rate_game(game_name_, players[0], players[1], returns_[0], tx.batch);
    } else {
      rating_lines_.push_back("This game was not rated.");
    }
  }
  tx.table_changed = true;
  spdlog::info("table {}: game over, {} ({})", label(), result_, reason);
  Event e = board_event("Summary");
  e.type = "gameover";
  e.data["result"] = result_;
  e.data["reason"] = reason;
  e.data["returns"] = returns_;
  e.data["ratings"] = rating_lines_;
  e.data["text"] = label() + ": " + status_line() + " (" + result_ + ", " + reason + ")";
  tx.all(e);
  clear_queued(tx, "the game is over");
}

void Table::undo_last(Tx& tx) {
  if (moves_.empty()) return;
  moves_.pop_back();
  tx.batch.delete_moves_from(id_, static_cast<int>(moves_.size()) + 1);
  rebuild_state();
  turn_started_ms_ = Lobby::now_ms();
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
  if (ts < 0 || seats_[static_cast<std::size_t>(ts)].kind != "cpu") return;
  play(tx, move, state_->current_seat(), true);
  after_move(tx);
}

void Table::on_clock(Tx& tx) {
  if (status_ != TableStatus::kPlaying || !clock_.enabled()) return;
  const int g = state_->current_seat();
  if (g == kTerminalSeat) return;
  const std::int64_t deadline = turn_started_ms_ + turn_allowance_ms(clock_, bank_ms_[g]);
  if (Lobby::now_ms() < deadline) return;
  bank_ms_[g] = 0;
  spdlog::info("table {}: {} lost on time", label(), owner_name(seat_to_move()));
  resign_seat(tx, seat_to_move(), "Forfeit");
}

void Table::arm_clock() {
  if (status_ != TableStatus::kPlaying || !clock_.enabled() || !state_ || state_->is_terminal()) {
    timer_.cancel();
    return;
  }
  const int g = state_->current_seat();
  const std::int64_t deadline = turn_started_ms_ + turn_allowance_ms(clock_, bank_ms_[g]);
  const std::int64_t delay = std::max<std::int64_t>(0, deadline - Lobby::now_ms());
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
  if (thinking_ || status_ != TableStatus::kPlaying) return;
  const int ts = seat_to_move();
  if (ts < 0 || seats_[static_cast<std::size_t>(ts)].kind != "cpu") return;
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
      bot = make_bot(seats_[static_cast<std::size_t>(ts)].name, options);
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
  boost::asio::post(lobby_.workers(), [self = shared_from_this(), bot, position, ply] {
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
  if (ts < 0 || seats_[static_cast<std::size_t>(ts)].kind != "cpu") return;
  // A computer player that cannot play this game (e.g. a level the game does not support)
  // must not stall the table: it forfeits.
  spdlog::error("table {}: {} cannot move: {}", label(), owner_name(ts), why);
  tx.all(error_event(owner_name(ts) + " cannot play here (" + why + ") and forfeits"));
  resign_seat(tx, ts, "Forfeit", "cpu failure");
}

}  // namespace plateau::server
