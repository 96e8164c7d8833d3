// The table row's data: the versioned snapshot of everything durable but moves, chat and events.
//
// Format history (kSnapshotVersion is the one written):
//   1  (no "v" field; Plateau before issue 13): seats as [kind, name] pairs.
//   2  "v": 2; seats as {"kind", "name"} objects; "seq": the table's last event seq.
//   3  (issue 14) Biloba has the option no_progress (default 300): a Biloba game stored before
//      it was started under the original's endless rules, so it keeps them (no_progress=0 in
//      its "options"); a table still in set-up takes the new default.
// Reading a row upgrades it step by step (one migration per version) and then loads the current
// form; a row of a newer version than this server knows is refused, naming both versions.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/registry.h"
#include "server/json_text.h"
#include "server/table.h"
#include "server/table_access.h"
#include "server/table_util.h"

namespace plateau::server {

using nlohmann::json;
using table_detail::same_name;
using table_detail::utc_date;
using table_detail::utc_time;

namespace {

constexpr int kSnapshotVersion = 3;

// 1 -> 2: seats become objects; a table of version 1 has heard no numbered event yet.
void snapshot_v1_to_v2(json& j) {
  json seats = json::array();
  for (const auto& s : j.value("seats", json::array())) {
    seats.push_back({{"kind", s.at(0)}, {"name", s.at(1)}});
  }
  j["seats"] = std::move(seats);
  j["seq"] = 0;
}

// 2 -> 3: a started Biloba game keeps the rules it was started with (no no-progress draw):
// replaying its stored moves under the new default could end it before its last move.
void snapshot_v2_to_v3(json& j, const std::string& game) {
  if (game != "biloba" || j.value("status", std::string("setup")) == "setup") return;
  std::string options = j.value("options", std::string());
  if (options.find("no_progress=") != std::string::npos) return;
  j["options"] = options.empty() ? "no_progress=0" : options + ",no_progress=0";
}

// Upgrades a snapshot of any known version to kSnapshotVersion, in place.
void migrate_snapshot(json& j, const std::string& game) {
  using Migration = void (*)(json&, const std::string&);
  static constexpr Migration kMigrations[] = {
      [](json& j, const std::string&) { snapshot_v1_to_v2(j); },
      snapshot_v2_to_v3};  // [v - 1]: v -> v + 1
  static_assert(std::size(kMigrations) == kSnapshotVersion - 1);
  int v = j.value("v", 1);
  if (v < 1 || v > kSnapshotVersion) {
    throw std::runtime_error("table snapshot version " + std::to_string(v) +
                             " is not known to this server (it reads 1.." +
                             std::to_string(kSnapshotVersion) + ")");
  }
  for (; v < kSnapshotVersion; ++v) kMigrations[v - 1](j, game);
  j["v"] = kSnapshotVersion;
}

TableStatus parse_status(const std::string& s) {
  if (s == "playing") return TableStatus::kPlaying;
  if (s == "over") return TableStatus::kOver;
  if (s == "declined") return TableStatus::kDeclined;
  return TableStatus::kSetup;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Persistence

std::string Table::data_json() const {
  json j;
  j["v"] = kSnapshotVersion;
  j["seq"] = seq_;
  j["board"] = board_;
  j["creator"] = creator_;
  j["options"] = game_->options_string();
  j["status"] = status_name(status_);
  j["rated"] = rated_;
  json seats = json::array();
  for (const auto& s : seats_)
    seats.push_back({{"kind", seat_kind_word(s.kind)}, {"name", s.name}});
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
        {"kind", request_word(request_->kind)},
        {"by", request_->by},
        {"accepted", std::vector<int>(request_->accepted.begin(), request_->accepted.end())}};
  }
  j["queued"] = queued_;
  j["queued_resign"] = queued_resign_;
  if (!resigned_.empty()) j["resigned"] = resigned_;
  j["flags"] = table_flags_;
  j["invited"] = invited_;
  j["subscribers"] = subscribers_;
  j["record_key"] = record_key_;
  j["clock"] = clock_.to_string();
  if (clock_.corr.nag_days > 0) j["nagtime"] = clock_.corr.nag_days;  // correspondence_clock.h
  if (clock_.corr.forfeit_days > 0) j["forfeittime"] = clock_.corr.forfeit_days;
  if (clock_.corr.by_mail) j["by_mail"] = true;
  if (nagged_ > 0) j["nagged"] = nagged_;
  j["bank"] = bank_ms_;
  j["turn_started"] = turn_started_ms_;
  j["started"] = started_ms_;
  j["ended"] = ended_ms_;
  json extra = json::array();
  for (const auto& e : extra_entries_) extra.push_back({e.text, e.seat});
  j["extra"] = extra;
  if (!external_.empty()) j["external"] = external_;  // table_external.cpp
  return json_text(j);
}

void Table::load_data_json(const std::string& text) {
  // Every durable member is assigned (or cleared) here: roll_back() reloads a live table.
  json j = json::parse(text);
  migrate_snapshot(j, game_name_);
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
  for (const auto& s : j.at("seats"))
    seats_.push_back({parse_seat_kind(s.at("kind").get<std::string>()), s.at("name")});
  seq_ = j.value("seq", std::int64_t{0});
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
    const std::string kind = j["request"].at("kind");
    if (kind != "draw" && kind != "undo")
      throw std::runtime_error("unknown request '" + kind + "'");
    r.kind = kind == "draw" ? RequestKind::kDraw : RequestKind::kUndo;
    r.by = j["request"].at("by");
    for (int s : j["request"].at("accepted")) r.accepted.insert(s);
    request_ = r;
  }
  queued_ = j.value("queued", std::map<std::string, std::string>());
  queued_resign_ = j.value("queued_resign", std::set<std::string>());
  resigned_ = j.value("resigned", std::set<int>());
  table_flags_ = j.value("flags", std::map<std::string, std::string>());
  invited_ = j.value("invited", std::set<std::string>());
  subscribers_ = j.value("subscribers", std::set<std::string>());
  record_key_ = j.value("record_key", std::string());
  if (table_flags_.count("invisible") && record_key_.empty()) record_key_ = new_record_key();
  clock_ = parse_clock(j.value("clock", std::string("none")));
  clock_.corr = {j.value("nagtime", 0), j.value("forfeittime", 0), j.value("by_mail", false)};
  nagged_ = j.value("nagged", std::int64_t{0});
  bank_ms_ = j.value("bank", std::vector<std::int64_t>());
  turn_started_ms_ = j.value("turn_started", std::int64_t{0});
  started_ms_ = j.value("started", std::int64_t{0});
  ended_ms_ = j.value("ended", std::int64_t{0});
  external_ = j.value("external", std::string());
  for (const auto& e : j.value("extra", json::array())) {
    extra_entries_.push_back({e.at(0), e.at(1), false});
  }
}

// The strand plumbing (post, run, pump, execute, finish, deliver, roll_back) is in table_tx.cpp.

}  // namespace plateau::server
