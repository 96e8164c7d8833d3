#include "server/remote_feed.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <climits>
#include <set>

#include "cluster/cluster_db.h"
#include "cluster/feed_db.h"
#include "core/registry.h"
#include "core/text.h"
#include "server/accounts.h"
#include "server/json_text.h"
#include "server/lobby.h"
#include "server/table_events.h"

namespace plateau::server {

using nlohmann::json;

namespace {

bool known_game(const std::string& name) {
  for (const GameInfo* g : registered_games()) {
    if (g->name == name) return true;
  }
  return false;
}

}  // namespace

RemoteFeed::RemoteFeed(Lobby& lobby, cluster::FeedOptions options)
    : lobby_(lobby), feed_(std::move(options), *this) {}

RemoteFeed::~RemoteFeed() { feed_.stop(); }

bool RemoteFeed::local(std::int64_t table_id, const std::string& game, int number) const {
  auto t = lobby_.find_table(game, number);
  return t && t->id() == table_id;
}

void RemoteFeed::follow(const std::shared_ptr<Client>& client, std::int64_t table_id,
                        const std::string& game, int number, std::int64_t after_seq) {
  add(client, table_id, game, number, after_seq, "");
}

std::map<std::int64_t, std::int64_t> RemoteFeed::positions(const std::shared_ptr<Client>& client) {
  std::lock_guard lock(mutex_);
  std::map<std::int64_t, std::int64_t> out;
  auto mine = by_client_.find(client.get());
  if (mine == by_client_.end()) return out;
  for (const auto id : mine->second) {
    auto t = tables_.find(id);
    if (t == tables_.end()) continue;
    for (const auto& f : t->second.followers) {
      if (f.key == client.get() && !f.client.expired()) out[id] = f.after;
    }
  }
  return out;
}

void RemoteFeed::erase_followers_locked(std::int64_t table_id,
                                        const std::function<bool(const Follower&)>& drop) {
  auto it = tables_.find(table_id);
  if (it == tables_.end()) return;
  auto& fs = it->second.followers;
  std::vector<const Client*> keys;
  for (const auto& f : fs) {
    if (drop(f)) keys.push_back(f.key);
  }
  if (keys.empty()) return;
  std::erase_if(fs, drop);
  if (fs.empty()) tables_.erase(it);
  // The index keeps the table for a key while any follower of that key (an address a new
  // client may reuse) is left there.
  it = tables_.find(table_id);
  for (const Client* key : keys) {
    if (it != tables_.end() && std::any_of(it->second.followers.begin(), it->second.followers.end(),
                                           [&](const Follower& f) { return f.key == key; })) {
      continue;
    }
    auto c = by_client_.find(key);
    if (c == by_client_.end()) continue;
    c->second.erase(table_id);
    if (c->second.empty()) by_client_.erase(c);
  }
}

void RemoteFeed::send_answer(const std::shared_ptr<Client>& client, std::int64_t table_id,
                             std::int64_t seq, std::int64_t since,
                             const std::function<void()>& send) {
  std::lock_guard lock(mutex_);
  if (auto it = tables_.find(table_id); it != tables_.end() && seq > since) {
    for (auto& f : it->second.followers) {
      if (f.key != client.get()) continue;
      // The feed told it during the command.
      if (since >= 0 && (f.after >= seq || f.told.count(seq))) return;
      if (seq > f.after + 1) {
        // Events before it are not delivered yet (another's move or chat, a moment earlier):
        // the feed still gives those, and leaves this one out.
        f.told.insert(seq);
        feed_.want(table_id);
      } else {
        f.after = std::max(f.after, seq);
      }
      break;
    }
  }
  send();
}

void RemoteFeed::add(const std::shared_ptr<Client>& client, std::int64_t table_id,
                     const std::string& game, int number, std::int64_t after_seq,
                     const std::string& seated_as) {
  if (!client || table_id <= 0) return;
  // This node's own tables tell their players and spectators themselves (Table delivers).
  if (local(table_id, game, number)) return;
  std::string refused;
  {
    std::lock_guard lock(mutex_);
    auto it = tables_.find(table_id);
    if (it != tables_.end()) {
      for (auto& f : it->second.followers) {
        if (f.key == client.get() && !f.client.expired()) {
          f.after = std::max(f.after, after_seq);
          if (!seated_as.empty()) f.seated_as = seated_as;
          feed_.want(table_id);
          return;
        }
      }
    }
    refused = refusal_locked(client, it == tables_.end());
    if (refused.empty()) {
      if (it == tables_.end()) it = tables_.emplace(table_id, Followed{game, number, {}}).first;
      it->second.followers.push_back(
          {client, client.get(), std::max<std::int64_t>(0, after_seq), seated_as, {}});
      by_client_[client.get()].insert(table_id);
    }
  }
  if (!refused.empty()) {
    if (auto count = refusals_.due()) {
      spdlog::warn("{}: cannot follow {} {}: {} ({} refusals since the last line)",
                   client->describe(), game, number, refused, *count);
    }
    client->send(error_event(refused), false);
    return;
  }
  feed_.want(table_id);  // read at once: events committed before this follow are not missed
}

std::string RemoteFeed::refusal_locked(const std::shared_ptr<Client>& client,
                                       bool new_table) const {
  std::size_t mine = 0;
  if (auto c = by_client_.find(client.get()); c != by_client_.end()) {
    for (const auto id : c->second) {
      auto t = tables_.find(id);
      if (t == tables_.end()) continue;
      for (const auto& f : t->second.followers) {
        mine += f.key == client.get() && !f.client.expired();
      }
    }
  }
  if (mine >= kMaxTablesPerClient) {
    return "you follow " + std::to_string(mine) + " tables of other nodes already; leave one";
  }
  if (new_table && tables_.size() >= kMaxTables) {
    return "this node follows too many tables of other nodes; try again later";
  }
  return "";
}

void RemoteFeed::unfollow(const std::shared_ptr<Client>& client, std::int64_t table_id) {
  std::lock_guard lock(mutex_);
  erase_followers_locked(table_id, [&](const Follower& f) { return f.key == client.get(); });
}

std::optional<std::int64_t> RemoteFeed::cursor(std::int64_t table_id) {
  std::lock_guard lock(mutex_);
  erase_followers_locked(table_id, [](const Follower& f) { return f.client.expired(); });
  auto it = tables_.find(table_id);
  if (it == tables_.end()) return std::nullopt;
  if (it->second.followers.empty()) {
    tables_.erase(it);
    return std::nullopt;
  }
  std::int64_t least = INT64_MAX;
  for (const auto& f : it->second.followers) least = std::min(least, f.after);
  return least;
}

void RemoteFeed::deliver(std::int64_t table_id, std::vector<store::EventRow> rows) {
  // Decoded once, shared by every follower: the same bytes a spectator on the owner gets.
  std::vector<std::shared_ptr<const RenderedEvent>> events;
  events.reserve(rows.size());
  for (const auto& row : rows) {
    try {
      events.push_back(std::make_shared<const RenderedEvent>(decode_table_event(row)));
    } catch (const std::exception& e) {
      // A damaged row is skipped (logged), not read again forever.
      spdlog::error("table id {}: {}; not delivered", table_id, e.what());
    }
  }
  const std::int64_t last = rows.empty() ? 0 : rows.back().seq;
  std::vector<std::pair<std::shared_ptr<Client>, std::vector<std::shared_ptr<const RenderedEvent>>>>
      out;
  {
    std::lock_guard lock(mutex_);
    auto it = tables_.find(table_id);
    if (it == tables_.end()) return;
    if (local(table_id, it->second.game, it->second.number)) {
      // Taken over by this node: its players hear it from the table now, not twice — those
      // made to follow as players, and every connection of a seated user (one that sat down
      // through the node link follows as a spectator does).
      const auto seated = seated_clients(it->second.game, it->second.number);
      erase_followers_locked(
          table_id, [&](const Follower& f) { return !f.seated_as.empty() || seated.count(f.key); });
      it = tables_.find(table_id);
      if (it == tables_.end()) return;
    }
    for (auto& f : it->second.followers) {
      auto c = f.client.lock();
      if (!c || f.after >= last) continue;
      std::vector<std::shared_ptr<const RenderedEvent>> mine;
      for (const auto& e : events) {
        if (e->event().seq > f.after && !f.told.count(e->event().seq)) mine.push_back(e);
      }
      f.after = last;
      f.told.erase(f.told.begin(), f.told.upper_bound(last));
      if (!mine.empty()) out.emplace_back(std::move(c), std::move(mine));
    }
  }
  for (auto& [c, mine] : out) {
    try {
      if (mine.size() > kPacedAfter) {
        c->send_replayed(std::move(mine));
      } else {
        for (auto& e : mine) c->send_shared(std::move(e), false);
      }
    } catch (const std::exception& e) {
      spdlog::error("table id {}: cannot send to {}: {}", table_id, c->describe(), e.what());
    }
  }
}

std::vector<std::int64_t> RemoteFeed::followed() {
  std::lock_guard lock(mutex_);
  std::vector<std::int64_t> ids;
  for (const auto& [id, t] : tables_) ids.push_back(id);
  return ids;
}

std::optional<RemoteFeed::FollowNotice> RemoteFeed::parse_notice(const std::string& payload) {
  if (payload.size() > cluster::kMaxNoticeBytes) return std::nullopt;
  try {
    const json j = json::parse(payload);
    if (!j.is_object() || j.value("v", 0) != 1 || j.value("kind", "") != "follow") {
      return std::nullopt;
    }
    FollowNotice n;
    n.to = j.at("to").get<std::string>();
    n.table_id = j.at("table").get<std::int64_t>();
    n.game = j.at("game").get<std::string>();
    const std::int64_t number = j.at("number").get<std::int64_t>();
    n.after = j.at("after").get<std::int64_t>();
    if (!valid_user_name(n.to) || n.table_id <= 0 || !known_game(n.game) || number <= 0 ||
        number > INT_MAX || n.after < 0) {
      return std::nullopt;
    }
    n.number = static_cast<int>(number);
    if (auto s = j.find("skip"); s != j.end()) {
      if (!s->is_object() || !s->at("cid").is_number_unsigned()) return std::nullopt;
      n.skip_node = s->at("node").get<std::string>();
      n.skip_cid = s->at("cid").get<std::uint64_t>();
      if (!cluster::bad_node_id(n.skip_node).empty() || n.skip_cid == 0) return std::nullopt;
    }
    return n;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

void RemoteFeed::notice(const std::string& payload) {
  if (lobby_.user_notice(payload)) return;  // a message to a user (lobby_notices.cpp)
  auto n = parse_notice(payload);
  if (!n) {
    if (auto count = bad_notices_.due()) {
      spdlog::warn("node {}: a malformed notice dropped ({} bytes; {} since the last line)",
                   feed_.node_id(), payload.size(), *count);
    }
    return;
  }
  for (const auto& c : lobby_.clients_of(n->to)) {
    if (n->skip_cid != 0 && n->skip_node == feed_.node_id() &&
        lobby_.forwarded_cid(c.get()) == n->skip_cid) {
      continue;  // the challenger's connection: it heard the challenge as its answer
    }
    if (!c->by_mail()) add(c, n->table_id, n->game, n->number, n->after, n->to);
  }
}

void RemoteFeed::notify_seated(std::int64_t table_id, const std::string& game, int number,
                               const std::vector<std::string>& seated, const std::string& skip_node,
                               std::uint64_t skip_cid) {
  {
    // Its seats go to the database at the feed's next round (a login elsewhere finds them).
    std::lock_guard lock(mutex_);
    if (new_tables_.size() < 10000) new_tables_.emplace_back(game, number);
  }
  feed_.wake();
  for (const auto& name : seated) {
    // Sent even when they are connected here (the table tells those connections itself): they
    // may be connected to other nodes too. Each node they are on makes them follow it; this
    // one's feed drops its own notice (the table is local).
    json notice{{"v", 1},       {"kind", "follow"}, {"to", name}, {"table", table_id},
                {"game", game}, {"number", number}, {"after", 0}};
    if (skip_cid != 0) notice["skip"] = {{"node", skip_node}, {"cid", skip_cid}};
    feed_.publish(json_text(notice));
  }
}

void RemoteFeed::presence_changed(const std::string& name) {
  if (!name.empty()) feed_.presence_changed(name);
}

void RemoteFeed::arrived(const std::shared_ptr<Client>& client, const std::string& user) {
  if (user.empty() || client->by_mail()) return;
  {
    std::lock_guard lock(mutex_);
    if (arrivals_.size() >= 10000) return;  // logins in a flood: they can `resync` instead
    arrivals_.emplace_back(client, user);
  }
  feed_.wake();
}

void RemoteFeed::left(const std::shared_ptr<Client>& client, const std::string& user) {
  std::lock_guard lock(mutex_);
  auto mine = by_client_.find(client.get());
  if (mine == by_client_.end()) return;
  const std::vector<std::int64_t> ids(mine->second.begin(), mine->second.end());
  for (const auto id : ids) {
    erase_followers_locked(id, [&](const Follower& f) {
      return f.key == client.get() && !f.seated_as.empty() &&
             to_lower(f.seated_as) == to_lower(user);
    });
  }
}

bool RemoteFeed::online(const std::string& name) { return !lobby_.online_name(name).empty(); }

std::vector<std::string> RemoteFeed::online_names() { return lobby_.online_names(); }

std::string RemoteFeed::listing() {
  json items = json::array();
  for (const auto& s : lobby_.table_summaries()) {
    if (s.access.invisible) continue;  // reachable only by some: never listed elsewhere
    if (items.size() >= kMaxListed) break;
    items.push_back({{"item", listing_json(s)}, {"line", listing_line(s)}});
  }
  return json_text(items);
}

void RemoteFeed::round(cluster::Connection& db, bool refresh) {
  // A new table's seats at once, any other change (a join, a leave, an end, a takeover) within
  // a second.
  if (refresh || seats_reset_) {
    {
      std::lock_guard lock(mutex_);
      new_tables_.clear();  // all of them now
    }
    write_seats(db);
  } else {
    write_new_seats(db);
  }
  std::vector<std::pair<std::weak_ptr<Client>, std::string>> arrivals;
  {
    std::lock_guard lock(mutex_);
    arrivals.swap(arrivals_);
  }
  for (const auto& [weak, user] : arrivals) {
    auto c = weak.lock();
    if (!c) continue;
    for (const auto& t : cluster::seated_tables(db, feed_.node_id(), user, kMaxSeatedFollowed)) {
      add(c, t.id, t.game, t.number, t.last_seq, user);
    }
  }
  if (!refresh) return;
  if (++refreshes_ % 10 == 0) cluster::forget_gone_nodes(db);  // every 10 s
  std::vector<std::string> names = cluster::remote_presence(db, feed_.node_id());
  std::vector<Listed> listed;
  for (const auto& [node, body] : cluster::remote_listings(db, feed_.node_id())) {
    // Another node's writing, checked as any input: a bad listing is left out (logged).
    try {
      const json j = json::parse(body);
      for (const auto& x : j) {
        if (listed.size() >= kMaxTables) break;
        const json& item = x.at("item");
        if (!item.is_object() || !item.at("game").is_string() || !item.at("board").is_number()) {
          throw std::runtime_error("an item without game and board");
        }
        listed.push_back({item, x.at("line").get<std::string>()});
      }
    } catch (const std::exception& e) {
      spdlog::warn("node {}: the listing of node {} cannot be read: {}", feed_.node_id(), node,
                   e.what());
    }
  }
  std::lock_guard lock(mutex_);
  remote_names_ = std::move(names);
  remote_listing_ = std::move(listed);
}

std::vector<std::shared_ptr<Client>> RemoteFeed::spectators_here(std::int64_t table_id) const {
  std::vector<std::shared_ptr<Client>> out;
  std::lock_guard lock(mutex_);
  auto it = tables_.find(table_id);
  if (it == tables_.end() || !local(table_id, it->second.game, it->second.number)) return out;
  const auto seated = seated_clients(it->second.game, it->second.number);
  for (const auto& f : it->second.followers) {
    if (!f.seated_as.empty() || seated.count(f.key)) continue;
    if (auto c = f.client.lock()) out.push_back(std::move(c));
  }
  return out;
}

std::set<const Client*> RemoteFeed::seated_clients(const std::string& game, int number) const {
  std::set<const Client*> out;
  if (auto t = lobby_.find_table(game, number)) {
    for (const auto& name : t->summary().access.seated) {
      for (const auto& c : lobby_.clients_of(name)) out.insert(c.get());
    }
  }
  return out;
}

std::vector<std::shared_ptr<Client>> RemoteFeed::followers_of(std::int64_t table_id) const {
  std::vector<std::shared_ptr<Client>> out;
  std::lock_guard lock(mutex_);
  if (auto it = tables_.find(table_id); it != tables_.end()) {
    for (const auto& f : it->second.followers) {
      if (auto c = f.client.lock()) out.push_back(std::move(c));
    }
  }
  return out;
}

std::vector<std::string> RemoteFeed::remote_names() const {
  std::lock_guard lock(mutex_);
  return remote_names_;
}

std::vector<RemoteFeed::Listed> RemoteFeed::remote_listing() const {
  std::lock_guard lock(mutex_);
  return remote_listing_;
}

}  // namespace plateau::server
