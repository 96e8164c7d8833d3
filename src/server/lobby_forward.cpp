// Commands forwarded between nodes over the node link (issue 16 item 2; docs/CLUSTER.md
// "Forwarding"; cluster/node_link.h), both ends:
//   - the client's node (home) finds that another live node owns the table a command is for,
//     sends it the line with the client's identity and waits (10 s at most) for the owner's
//     reply events, which its client gets as if the table were here (same events, same bytes,
//     the WebSocket id kept), then for "done", whose trailer says whether the client now sits
//     at or watches the table: it then follows the table's events through RemoteFollow (the
//     owner never pushes them over the link) and unfollows it once it left;
//   - the owner runs the line (lobby_forwarded.cpp).
// New tables (`open`, a challenge of CPU players) are forwarded the same way to the live node
// with the fewest tables.
#include "cluster/cluster_db.h"
#include "cluster/feed_db.h"
#include "cluster/node.h"
#include "core/text.h"
#include "server/lobby_ctx.h"
#include "server/lobby_forwarding.h"
#include "server/remote_feed.h"

namespace plateau::server {

using namespace forwarding;

namespace {

// Runs `read` with the event feed's connection on its thread (a database read that must not
// wait on an I/O thread), then `again` on `client`'s strand — the command once more, now that
// the answer is cached (or not: a failed read is logged, and the command reads it itself) —
// unless the client is gone meanwhile (then only `done`). False if the feed has no room.
bool read_on_feed_then(RemoteFeed& feed, const std::shared_ptr<Client>& client,
                       std::function<void()> done, std::function<void(cluster::Connection&)> read,
                       std::function<void()> again) {
  return feed.run_on_feed([client, done = std::move(done), read = std::move(read),
                           again = std::move(again)](cluster::Connection* db) {
    if (db) {
      try {
        read(*db);
      } catch (const std::exception& e) {
        spdlog::warn("forward: a read on the event feed failed: {}", e.what());
      }
    }
    client->on_strand([client, done, again] {
      if (client->gone) {
        if (done) done();
        return;
      }
      again();
    });
  });
}

}  // namespace

void Lobby::set_link(cluster::NodeLink* link, bool tables_here) {
  link_ = link;
  tables_here_ = tables_here;
  if (link_ && !forwarding_) forwarding_ = std::make_shared<Forwarding>();
}

// ---- the client's node ----

bool Lobby::forward_table_command(Ctx& ctx, const Command& c) {
  if (!link_ || !node_ || ctx.local_only || dynamic_cast<ProxyClient*>(ctx.client.get())) {
    return false;
  }
  Forwarding& f = *forwarding_;
  std::optional<Forwarding::Remote> current;
  int number = 0;
  if (c.board) {
    // Served here (or reachable or not: the local answer says so).
    if (c.game.empty() ? !directory_.with_number(*c.board).empty()
                       : directory_.find(c.game, *c.board) != nullptr) {
      return false;
    }
    number = *c.board;
  } else {
    if (ctx.client->current.lock()) return false;
    std::lock_guard lock(f.mutex);
    auto it = f.homes.find(ctx.client.get());
    if (it == f.homes.end() || !it->second.current) return false;
    current = it->second.current;
    number = current->number;
  }
  // Its owner, from the tables and nodes rows (cached briefly, misses too).
  std::vector<std::pair<std::string, store::NodeRow>> owners;
  bool cached = false;
  bool looked_up = false;  // this command comes back from a lookup on the feed's thread
  {
    std::lock_guard lock(f.mutex);
    if (auto home = f.homes.find(ctx.client.get()); home != f.homes.end()) {
      looked_up = std::exchange(home->second.looked_up, 0) == number;
    }
    if (auto known = f.owners.find(number, Clock::now())) {
      owners = std::move(*known);
      cached = true;
    } else if (!looked_up && !f.take_lookup()) {
      throw CommandError("board " + std::to_string(number) +
                         " cannot be looked up now (the server is busy); try again");
    }
  }
  if (!cached && !looked_up && remote_feed_) {
    // Read on the feed's thread, so that this I/O thread serves its other clients meanwhile;
    // then the command runs again, from the start, and finds the answer cached.
    if (read_on_feed_then(
            *remote_feed_, ctx.client, ctx.done,
            [fwd = forwarding_, number](cluster::Connection& db) {
              fwd->remember(number, cluster::owners_of_number(db, number));
            },
            [this, fwd = forwarding_, client = ctx.client, number, line = std::string(ctx.line),
             done = ctx.done, comment = ctx.comment] {
              {
                std::lock_guard lock(fwd->mutex);
                fwd->homes[client.get()].looked_up = number;
              }
              run_line(client, line, done, comment, false);
            })) {
      ctx.deferred = true;
      return true;
    }
  }
  if (!cached) {
    // Read here (the feed's answer did not stay in the cache, or the feed is busy).
    owners = node_->owners_of_number(number).value_or(decltype(owners){});
    f.remember(number, owners);
  }
  const std::string& game = current ? current->game : c.game;
  std::erase_if(owners, [&](const auto& o) {
    return (!game.empty() && o.first != game) || o.second.id == node_id();
  });
  if (owners.empty()) {
    if (current && find_table(current->game, current->number)) {
      // Taken over by this node meanwhile: the table is local now.
      ctx.client->current = find_table(current->game, current->number);
      return false;
    }
    return false;  // the local answer: no such board
  }
  if (owners.size() > 1) {
    std::vector<std::string> games;
    for (const auto& o : owners) games.push_back(o.first);
    throw CommandError("board " + std::to_string(number) + " exists for " + join(games, " and ") +
                       "; say which, e.g. " + games[0] + " " + std::string(verb_name(c.verb)) +
                       " " + std::to_string(number));
  }
  const auto& [table_game, owner] = owners.front();
  const std::string what = table_game + " " + std::to_string(number);
  {
    std::lock_guard lock(f.mutex);
    f.homes[ctx.client.get()].board = number;
  }
  send_forwarded(ctx, owner, false,
                 [fwd = forwarding_, client = ctx.client, done = ctx.done, what, number,
                  peer = owner.id](cluster::LinkFailure, const std::string& why) {
                   spdlog::warn("forward: {} for {}: {}", what, client->describe(), why);
                   fwd->forget_owner(number, peer);  // read again next time
                   client->on_strand([client, done, what, peer] {
                     client->send(error_event(what + " is served by node " + peer +
                                              ", which cannot be reached now: try again"),
                                  true);
                     if (done) done();
                   });
                 });
  return true;
}

bool Lobby::forward_new_table(Ctx& ctx, bool movable) {
  if (!movable || tables_here_ || !link_ || !node_ || ctx.local_only || ctx.client->by_mail() ||
      dynamic_cast<ProxyClient*>(ctx.client.get())) {
    return false;
  }
  Forwarding& f = *forwarding_;
  std::vector<std::pair<store::NodeRow, std::int64_t>> loads;
  bool looked_up = false;  // this command comes back from a read on the feed's thread
  {
    std::lock_guard lock(f.mutex);
    if (f.loads_until > Clock::now()) loads = f.loads;
    if (auto home = f.homes.find(ctx.client.get()); home != f.homes.end()) {
      looked_up = std::exchange(home->second.loads_looked_up, false);
    }
  }
  if (loads.empty() && !looked_up && remote_feed_) {
    // As a board's owner (forward_table_command): read on the feed's thread, then the command
    // runs again and finds the loads cached.
    if (read_on_feed_then(
            *remote_feed_, ctx.client, ctx.done,
            [fwd = forwarding_](cluster::Connection& db) {
              auto found = cluster::node_loads(db, cluster::kLiveWithinMs);
              std::lock_guard lock(fwd->mutex);
              fwd->loads = std::move(found);
              fwd->loads_until = Clock::now() + kLoadCacheTime;
            },
            [this, fwd = forwarding_, client = ctx.client, line = std::string(ctx.line),
             done = ctx.done, comment = ctx.comment] {
              {
                std::lock_guard lock(fwd->mutex);
                fwd->homes[client.get()].loads_looked_up = true;
              }
              run_line(client, line, done, comment, false);
            })) {
      ctx.deferred = true;
      return true;
    }
  }
  if (loads.empty()) {
    // Read here (the feed's answer did not stay, or the feed is busy).
    loads = node_->loads().value_or(decltype(loads){});
    std::lock_guard lock(f.mutex);
    f.loads = loads;
    f.loads_until = Clock::now() + kLoadCacheTime;
  }
  // The live node with the fewest tables; this one on a tie (no round trip).
  std::optional<std::int64_t> mine;
  const std::pair<store::NodeRow, std::int64_t>* least = nullptr;
  for (const auto& l : loads) {
    if (l.first.id == node_id()) mine = l.second;
    if (!least || l.second < least->second) least = &l;
  }
  if (!least || !mine || least->first.id == node_id() || least->second >= *mine) return false;
  const store::NodeRow target = least->first;
  {
    // Counted at once, so that a burst of new tables does not all go to the same node.
    std::lock_guard lock(f.mutex);
    for (auto& l : f.loads) {
      if (l.first.id == target.id) ++l.second;
    }
  }
  spdlog::debug("forward: a new table of {} goes to node {}", ctx.client->describe(), target.id);
  send_forwarded(
      ctx, target, true,
      [this, client = ctx.client, done = ctx.done, line = std::string(ctx.line),
       comment = ctx.comment, peer = target.id](cluster::LinkFailure kind, const std::string& why) {
        client->on_strand([this, client, done, line, comment, peer, kind, why] {
          if (kind == cluster::LinkFailure::kNotSent) {
            // Nothing was made there: make it here.
            spdlog::warn("forward: a new table for {} stays here: {}", client->describe(), why);
            run_line(client, line, done, comment, true);
            return;
          }
          client->send(error_event("the new table was sent to node " + peer +
                                   ", which cannot be reached now: see 'tables' and "
                                   "try again"),
                       true);
          if (done) done();
        });
      });
  return true;
}

void Lobby::send_forwarded(Ctx& ctx, const store::NodeRow& to, bool new_table,
                           std::function<void(cluster::LinkFailure, const std::string&)> on_fail) {
  Forwarding& f = *forwarding_;
  auto client = ctx.client;
  auto done = ctx.done;
  json req{{"user", client->user},
           {"guest", client->guest},
           {"line", std::string(ctx.line)},
           {"comment", ctx.comment}};
  {
    std::lock_guard lock(f.mutex);
    Forwarding::Home& home = f.homes[client.get()];
    if (home.cid == 0) home.cid = ++f.next_cid;
    home.peers.insert(to.id);
    req["cid"] = home.cid;
    if (home.current && !new_table) {
      req["current"] = {{"game", home.current->game}, {"number", home.current->number}};
    }
  }
  ctx.deferred = true;
  // The highest seq among the replies: the feed delivers what follows it (remote_follow.h).
  auto max_seq = std::make_shared<std::int64_t>(0);
  auto replayed = std::make_shared<bool>(false);  // a resync's replay was among them
  // Where the client stood in the tables it follows: an answer's event past that may also come
  // from the feed (send_answer).
  auto since = std::make_shared<const std::map<std::int64_t, std::int64_t>>(
      remote_follow_ ? remote_follow_->positions(client) : std::map<std::int64_t, std::int64_t>{});
  link_->request(
      to.id, host_of(to.address), to.node_port, std::move(req),
      [this, client, max_seq, replayed, since](const json& frame) {
        if (auto e = frame.find("e"); e != frame.end()) {
          Event event = event_of(*e);
          *max_seq = std::max(*max_seq, event.seq);
          auto t = frame.find("table");
          // The feed may be delivering this very event: one of the two reaches the client.
          if (remote_follow_ && event.seq > 0 && t != frame.end() && t->is_number_integer()) {
            const std::int64_t id = t->get<std::int64_t>();
            const auto was = since->find(id);
            remote_follow_->send_answer(client, id, event.seq,
                                        was == since->end() ? -1 : was->second,
                                        [&] { client->send(event, true); });
          } else {
            client->send(event, true);
          }
          // A table event told as an answer goes only to a player or a spectator of the table:
          // the feed tells it the events after this one (and not this one again). One that
          // followed the table already keeps its place: moving it past events the feed has not
          // delivered yet would lose them.
          if (remote_follow_ && event.seq > 0 && t != frame.end() && t->is_number_integer() &&
              !since->count(t->get<std::int64_t>()) && event.data.is_object() &&
              event.data.contains("game") && event.data["game"].is_string() &&
              event.data.contains("board") && event.data["board"].is_number_integer()) {
            remote_follow_->follow(client, t->get<std::int64_t>(),
                                   event.data["game"].get<std::string>(),
                                   event.data["board"].get<int>(), event.seq);
          }
        } else if (auto rp = frame.find("rp"); rp != frame.end() && rp->is_array()) {
          std::vector<std::shared_ptr<const RenderedEvent>> events;
          for (const auto& j : *rp) {
            events.push_back(std::make_shared<const RenderedEvent>(event_of(j)));
            *max_seq = std::max(*max_seq, events.back()->event().seq);
          }
          *replayed = true;
          client->send_replayed(std::move(events));
        } else {
          throw std::runtime_error("a malformed answer");
        }
      },
      [this, fwd = forwarding_, client, done, max_seq, replayed, since, peer = to.id,
       new_table](const json& frame) {
        // The trailer: the table the command was about, where the client stands there.
        std::optional<json> table;
        if (auto t = frame.find("table"); t != frame.end() && t->is_object()) table = *t;
        if (!new_table) fwd->answered(client.get(), peer, table.has_value());
        const std::int64_t seen = *max_seq;
        const bool replay = *replayed;
        client->on_strand([this, fwd, client, done, table, seen, replay, since, peer, new_table] {
          // A client gone meanwhile follows nothing (forwarded_client_gone has run).
          if (table && !client->gone) {
            try {
              const std::int64_t id = table->at("id").get<std::int64_t>();
              const std::string game = table->at("game").get<std::string>();
              const int number = table->at("number").get<int>();
              const bool seated_or_watching =
                  table->at("seated").get<bool>() || table->at("watching").get<bool>();
              const bool left = table->value("left", false);
              const bool current = table->at("current").get<bool>();
              const std::int64_t after =
                  seen > 0 ? seen : table->at("last_seq").get<std::int64_t>();
              bool changed = false;
              {
                std::lock_guard lock(fwd->mutex);
                auto& home = fwd->homes[client.get()];
                if (seated_or_watching) {
                  changed = home.followed.emplace(id, game + " " + std::to_string(number)).second;
                } else if (left) {
                  changed = home.followed.erase(id) > 0;
                }
                if (current) home.current = Forwarding::Remote{game, number};
              }
              if (current) client->current.reset();
              if (new_table) {
                spdlog::info("forward: {} opened {} {} (table {}) on node {}", client->describe(),
                             game, number, id, peer);
              }
              if (seated_or_watching) {
                if (changed) {
                  spdlog::info("forward: {} follows {} {} (table {}) of node {} after seq {}",
                               client->describe(), game, number, id, peer, after);
                }
                // As above: a follower keeps its place, unless a replay told it everything.
                if (remote_follow_ && (replay || !since->count(id))) {
                  remote_follow_->follow(client, id, game, number, after);
                }
              } else if (left) {
                if (changed) {
                  spdlog::info("forward: {} unfollows {} {} (table {}) of node {}",
                               client->describe(), game, number, id, peer);
                }
                if (remote_follow_) remote_follow_->unfollow(client, id);
              }
            } catch (const std::exception& e) {
              spdlog::error("forward: a bad answer trailer from node {}: {}", peer, e.what());
            }
          }
          if (done) done();
        });
      },
      std::move(on_fail));
}

void Lobby::forwarded_client_gone(const std::shared_ptr<Client>& client) {
  if (!forwarding_) return;
  Forwarding::Home home;
  {
    std::lock_guard lock(forwarding_->mutex);
    auto it = forwarding_->homes.find(client.get());
    if (it == forwarding_->homes.end()) return;
    home = std::move(it->second);
    forwarding_->homes.erase(it);
  }
  for (const auto& peer : home.peers) link_->note(peer, json{{"what", "gone"}, {"cid", home.cid}});
  if (remote_follow_) {
    for (const auto& [id, name] : home.followed) remote_follow_->unfollow(client, id);
  }
}

}  // namespace plateau::server
