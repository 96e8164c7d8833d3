// Table commands (BSW style): join, leave, option, start, watch, say, reset, and the dispatch.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>

#include "core/error.h"
#include "core/registry.h"
#include "server/rating_policy.h"
#include "server/table.h"
#include "server/table_access.h"
#include "server/table_util.h"

namespace plateau::server {

using table_detail::same_name;
using table_detail::utc_date;
using table_detail::utc_time;

namespace {

constexpr std::size_t kChatMaxBytes = 1000;

}  // namespace

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
  // A comment sent with the command (a mail's body) joins the action when the action told the
  // table something, so that one mail carries both (issue 15 d); a queued command (nothing told)
  // keeps its comment to itself.
  if (!c.text.empty() && takes_comment(c.verb) && tx.told() > 0) cmd_say(tx, c.text);
  drop_unreachable_watchers();
}

void Table::run_command(Tx& tx, const Command& c) {
  switch (c.verb) {
    case Verb::kTable: {
      const bool added = add_watcher(tx.caller.client, tx.caller.user);
      tx.reply(TableShown{table_view(), "You are at " + label() + ". " + status_line()});
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
      tx.reply(TableShown{table_view(), label() + " (" + status_name(status_) +
                                            "): " + join(parts, ", ") + "; clock " +
                                            clock_.to_string() + correspondence_info() +
                                            (rated_ ? "; rated" : "")});
      return;
    }
    case Verb::kMove:
      return cmd_move(tx, c);
    case Verb::kQueue:
      return cmd_queue(tx, c);
    case Verb::kResign:
      return cmd_resign(tx);
    case Verb::kPropose:
      return cmd_request(tx, RequestKind::kDraw);
    case Verb::kUndo:
      return cmd_request(tx, RequestKind::kUndo);
    case Verb::kAccept:
      return cmd_answer(tx, true);
    case Verb::kReject:
      return cmd_answer(tx, false);
    case Verb::kShow:
      return cmd_show(tx, c);
    case Verb::kSteps:
      return cmd_steps(tx, c);
    case Verb::kResync:
      return cmd_resync(tx, c);
    case Verb::kInvite:
      return cmd_invite(tx, c);
    case Verb::kPreview:
      return cmd_preview(tx, c);
    case Verb::kSubmit:
      return cmd_submit(tx, c);
    case Verb::kConfirm:
      return cmd_confirm(tx, c);
    case Verb::kSubscribe:
      return cmd_subscribe(tx, true);
    case Verb::kUnsubscribe:
      return cmd_subscribe(tx, false);
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
    tx.all(SeatChanged{SeatChanged::What::kBack, tx.caller.user, mine + 1, table_view()});
    tx.reply(BoardShown{board_view("Summary"), ""});
    return;
  }
  if (status_ != TableStatus::kSetup) {
    throw CommandError("the game at " + label() + " is over" +
                       (board_ ? "" : "; /reset to set up a new one"));
  }
  if (!level.empty()) {
    if (!is_bot_for(level, *game_)) {
      // The level was lower-cased from the command; cut it so that a long one is not echoed.
      throw CommandError("bad CPU level: '" + level.substr(0, 30) + "' does not play " +
                         game_->name() + "; its computer players are " + bot_names_for(*game_));
    }
    if (table_flags_.count("host") && !same_name(tx.caller.user, creator_)) {
      throw CommandError("only the table chief (" + creator_ + ") may seat a computer player");
    }
    if (mine < 0 && !same_name(tx.caller.user, creator_)) {
      throw CommandError("sit down first (/join) to seat a computer player");
    }
    if (!seats_[*seat].free()) {
      throw CommandError("seat " + std::to_string(*seat + 1) + " is taken by " + owner_name(*seat));
    }
    seats_[*seat] = {SeatKind::kCpu, level};
    bots_[*seat].reset();
    tx.table_changed = true;
    add_watcher(tx.caller.client, tx.caller.user);
    tx.all(SeatChanged{SeatChanged::What::kTaken, "cpu:" + level, *seat + 1, table_view()});
    return;
  }
  if (mine >= 0) throw CommandError("you already sit in seat " + std::to_string(mine + 1));
  if (!seat) {
    for (std::size_t s = 0; s < seats_.size(); ++s) {
      if (seats_[s].free()) {
        seat = static_cast<int>(s);
        break;
      }
    }
    if (!seat) throw CommandError("the table is full");
  } else if (!seats_[*seat].free()) {
    throw CommandError("seat " + std::to_string(*seat + 1) + " is taken by " + owner_name(*seat));
  }
  seats_[*seat] = {SeatKind::kUser, tx.caller.user};
  tx.table_changed = true;
  add_watcher(tx.caller.client, tx.caller.user);
  spdlog::info("table {}: {} takes seat {}", label(), tx.caller.user, *seat + 1);
  tx.all(SeatChanged{SeatChanged::What::kTaken, tx.caller.user, *seat + 1, table_view()});
}

void Table::cmd_leave(Tx& tx) {
  require_user(tx);
  const int mine = table_seat_of(tx.caller.user);
  if (status_ == TableStatus::kSetup && mine >= 0) {
    seats_[mine] = {};
    tx.table_changed = true;
    tx.all(SeatChanged{SeatChanged::What::kLeft, tx.caller.user, mine + 1, table_view()});
    remove_watcher(tx.caller.client);
    return;
  }
  if (status_ == TableStatus::kPlaying && mine >= 0) {
    tx.all(SeatChanged{SeatChanged::What::kAway, tx.caller.user, mine + 1, table_view()});
    remove_watcher(tx.caller.client);
    return;
  }
  if (!is_watching(tx.caller.client)) throw CommandError("you are not at " + label());
  const bool was_spectator = !tx.caller.user.empty() && mine < 0;
  remove_watcher(tx.caller.client);
  tx.reply(ok_event("You left " + label() + "."));
  if (was_spectator) {
    tx.all(spectators_changed(SpectatorsChanged::What::kLeft, tx.caller.user));
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
    if (name == "clock" || name == "nagtime" || name == "forfeittime") {
      try {
        if (name == "nagtime") {
          clock.corr.nag_days = parse_correspondence_days(name, value);
        } else if (name == "forfeittime") {
          clock.corr.forfeit_days = parse_correspondence_days(name, value);
        } else {
          const CorrespondenceSettings corr = clock.corr;
          clock = parse_clock(value);
          clock.corr = corr;
        }
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
      for (const char* t : {"clock", "nagtime", "forfeittime", "invisible", "drawseat", "host",
                            "result"}) {
        names.push_back(t);
      }
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
    if (!seats_[s].free()) {
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
  tx.all(OptionsSet{tx.caller.user, done, table_view()});
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
    if (seats_[s].free()) {
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
    if (s.kind == SeatKind::kUser && !services_.is_account(s.name)) guests = true;
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
  resigned_.clear();
  status_ = TableStatus::kPlaying;
  started_ms_ = turn_started_ms_ = TableServices::now_ms();
  bank_ms_.assign(static_cast<std::size_t>(n), clock_.base_ms);
  tx.table_changed = true;
  spdlog::info("table {}: game starts ({}, {})", label(), join(players_by_game_seat(), " vs "),
               rated_ ? "rated" : "unrated");
  tx.all(GameStarted{board_view("Summary"), players_by_game_seat(), rated_});
}

void Table::cmd_watch(Tx& tx) {
  const bool added = add_watcher(tx.caller.client, tx.caller.user);
  tx.reply(BoardShown{board_view("Summary"), "You are watching " + label() + "."});
  if (added) announce_spectator(tx);
}

void Table::announce_spectator(Tx& tx) {
  // Players following their own table, and connections not logged in, are not news.
  if (tx.caller.user.empty() || table_seat_of(tx.caller.user) >= 0) return;
  tx.all(spectators_changed(SpectatorsChanged::What::kCame, tx.caller.user));
}

void Table::cmd_say(Tx& tx, const std::string& text) {
  require_user(tx);
  if (text.size() > kChatMaxBytes) {
    throw CommandError("chat line too long (at most " + std::to_string(kChatMaxBytes) + " bytes)");
  }
  store::ChatRow row{id_, TableServices::now_ms(), tx.caller.user, text};
  tx.batch.add_chat(row);
  chat_.push_back(row);
  if (chat_.size() > kChatKept) chat_.erase(chat_.begin());
  tx.all(ChatSaid{game_name_, number_, tx.caller.user, text});
  relay_chat(tx, text);  // an external table's other side (table_external.cpp)
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
  tx.all(TableReset{tx.caller.user, table_view()});
}

}  // namespace plateau::server
