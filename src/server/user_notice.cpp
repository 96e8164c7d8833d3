#include "server/user_notice.h"

#include <algorithm>
#include <climits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cluster/cluster_db.h"
#include "cluster/event_feed.h"
#include "core/registry.h"
#include "server/accounts.h"
#include "server/json_text.h"

namespace plateau::server {

using nlohmann::json;

namespace {

enum class Field { kGame, kBoard, kUser, kText, kMove, kTrue };

// Each event a table sends to one user (Table::Tx::user), with exactly these fields.
const std::map<std::string, std::map<std::string, Field>>& schemas() {
  static const std::map<std::string, std::map<std::string, Field>> kSchemas = {
      {"invite",
       {{"game", Field::kGame},
        {"board", Field::kBoard},
        {"by", Field::kUser},
        {"text", Field::kText}}},
      {"queued",
       {{"game", Field::kGame},
        {"board", Field::kBoard},
        {"move", Field::kMove},
        {"dropped", Field::kTrue},
        {"cancelled", Field::kTrue},
        {"text", Field::kText}}},
      {"error", {{"message", Field::kText}}},
      {"ok", {{"text", Field::kText}}},
  };
  return kSchemas;
}

bool known_game(const std::string& name) {
  for (const GameInfo* g : registered_games()) {
    if (g->name == name) return true;
  }
  return false;
}

// One line a text client prints as it is: no control character (a line break would let the
// sender forge a second line), at most `max` bytes. (The JSON parser checked UTF-8.)
bool one_line(const json& v, std::size_t max) {
  if (!v.is_string()) return false;
  const auto& s = v.get_ref<const std::string&>();
  if (s.empty() || s.size() > max) return false;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) return false;
  }
  return true;
}

bool field_ok(Field f, const json& v) {
  switch (f) {
    case Field::kGame:
      return v.is_string() && known_game(v.get<std::string>());
    case Field::kBoard:
      return v.is_number_integer() && v.get<std::int64_t>() > 0 && v.get<std::int64_t>() <= INT_MAX;
    case Field::kUser:
      return v.is_string() && valid_user_name(v.get<std::string>());
    case Field::kText:
      return one_line(v, kMaxNoticeText);
    case Field::kMove:
      return one_line(v, 220);  // 200 bytes and its #n (table_play.cpp)
    case Field::kTrue:
      return v.is_boolean() && v.get<bool>();
  }
  return false;
}

// The event's type and data as a table makes them: every field of its schema but at most one
// of the kTrue ones (which says what happened), nothing else.
bool event_ok(const Event& e) {
  const auto it = schemas().find(e.type);
  if (it == schemas().end() || !e.data.is_object() || !e.page.empty() || e.seq != 0) return false;
  int flags = 0;
  for (const auto& [key, value] : e.data.items()) {
    const auto f = it->second.find(key);
    if (f == it->second.end() || !field_ok(f->second, value)) return false;
    flags += f->second == Field::kTrue;
  }
  std::size_t wanted = 0;
  for (const auto& [key, f] : it->second) wanted += f != Field::kTrue;
  const bool has_flag = std::any_of(it->second.begin(), it->second.end(),
                                    [](const auto& kv) { return kv.second == Field::kTrue; });
  return e.data.size() == wanted + (has_flag ? 1 : 0) && flags == (has_flag ? 1 : 0);
}

// A table's message to all: what Table::Tx::all(Event) and others() carry.
bool table_event_ok(const Event& e) { return (e.type == "ok" || e.type == "error") && event_ok(e); }

}  // namespace

std::string user_notice_payload(const UserNotice& n) {
  if (n.table_id > 0 ? !table_event_ok(n.event) : !event_ok(n.event)) return "";
  json j{{"v", 1},
         {"kind", n.table_id > 0 ? "table" : "user"},
         {"from", n.from},
         {"event", {{"type", n.event.type}, {"data", n.event.data}}}};
  if (n.table_id > 0) {
    j["table"] = n.table_id;
  } else {
    j["to"] = n.to;
  }
  if (!n.skip_node.empty()) j["skip"] = {{"node", n.skip_node}, {"cid", n.skip_cid}};
  std::string payload = json_text(j);
  return payload.size() <= cluster::kMaxNoticeBytes ? payload : "";
}

std::optional<UserNotice> parse_user_notice(const std::string& payload) {
  if (payload.size() > cluster::kMaxNoticeBytes) return std::nullopt;
  try {
    const json j = json::parse(payload);
    if (!j.is_object() || !j.contains("kind")) return std::nullopt;
    const std::string kind = j.value("kind", "");
    if (kind != "user" && kind != "table") return std::nullopt;
    const bool table = kind == "table";
    const std::set<std::string> keys = {"v",    "kind", table ? "table" : "to",
                                        "from", "skip", "event"};
    for (const auto& [key, value] : j.items()) {
      if (!keys.count(key)) return std::nullopt;
    }
    if (!j.at("v").is_number_integer() || j.at("v").get<int>() != 1) return std::nullopt;
    UserNotice n;
    if (table) {
      const json& id = j.at("table");
      if (!id.is_number_integer() || id.get<std::int64_t>() <= 0) return std::nullopt;
      n.table_id = id.get<std::int64_t>();
    } else {
      n.to = j.at("to").get<std::string>();
      if (!valid_user_name(n.to)) return std::nullopt;
    }
    n.from = j.at("from").get<std::string>();
    if (!cluster::bad_node_id(n.from).empty()) return std::nullopt;
    if (auto s = j.find("skip"); s != j.end()) {
      if (!s->is_object() || s->size() != 2) return std::nullopt;
      n.skip_node = s->at("node").get<std::string>();
      const json& cid = s->at("cid");
      if (!cluster::bad_node_id(n.skip_node).empty() || !cid.is_number_unsigned() ||
          cid.get<std::uint64_t>() == 0) {
        return std::nullopt;
      }
      n.skip_cid = cid.get<std::uint64_t>();
    }
    const json& e = j.at("event");
    if (!e.is_object() || e.size() != 2 || !e.at("type").is_string()) return std::nullopt;
    n.event.type = e.at("type").get<std::string>();
    n.event.data = e.at("data");
    if (table ? !table_event_ok(n.event) : !event_ok(n.event)) return std::nullopt;
    return n;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool NoticeBudget::take() {
  std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  tokens_ =
      std::min(kBurst, tokens_ + kPerSecond * std::chrono::duration<double>(now - refill_).count());
  refill_ = now;
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

}  // namespace plateau::server
