// Commands forwarded between nodes over the node link (issue 16 item 2; docs/CLUSTER.md
// "Forwarding"; cluster/node_link.h), both ends:
//   - the client's node (home) finds that another live node owns the table a command is for,
//     sends it the line with the client's identity and waits (10 s at most) for the owner's
//     reply events, which its client gets as if the table were here (same events, same bytes,
//     the WebSocket id kept), then for "done", whose trailer says whether the client now sits
//     at or watches the table: it then follows the table's events through RemoteFollow (the
//     owner never pushes them over the link) and unfollows it once it left;
//   - the owner runs the line through handle() for a stand-in client (ProxyClient) of that
//     client, one per home connection and client, which relays the replies and drops the
//     pushed events.
// New tables (`open`, a challenge of CPU players) are forwarded the same way to the live node
// with the fewest tables.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <set>

#include "cluster/node.h"
#include "cluster/node_link.h"
#include "core/text.h"
#include "server/lobby.h"
#include "server/lobby_ctx.h"

namespace plateau::server {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr auto kOwnerCacheTime = std::chrono::seconds(2);
constexpr auto kMissCacheTime = std::chrono::seconds(1);
constexpr auto kLoadCacheTime = std::chrono::seconds(1);
constexpr std::size_t kMaxCached = 10000;
// Owner lookups in the database (a board not served here, not cached) per second, node-wide, and
// their burst: strangers naming board after board cannot keep the database and the I/O threads
// busy.
constexpr double kLookupsPerSecond = 100;
constexpr double kLookupBurst = 200;
constexpr std::size_t kMaxCommentBytes = 64 * 1024;
constexpr std::size_t kMaxQueuedPerProxy = 8;          // forwarded commands waiting per client
constexpr std::size_t kReplayChunkBytes = 256 * 1024;  // a resync's events per frame, about

json event_json(const Event& e) {
  return json{{"type", e.type}, {"data", e.data}, {"page", e.page}, {"seq", e.seq}};
}

// The peer is authenticated, but its frames are still checked for shape: a bad one throws,
// which closes that link (node_link.h).
Event event_of(const json& j) {
  if (!j.is_object() || !j.at("type").is_string() || !j.at("page").is_string() ||
      !j.at("seq").is_number_integer() || !j.at("data").is_object()) {
    throw std::runtime_error("a malformed event");
  }
  return Event{j["type"].get<std::string>(), j["data"], j["page"].get<std::string>(),
               j["seq"].get<std::int64_t>()};
}

std::string host_of(const std::string& address) {
  std::string host = address.substr(0, address.rfind(':'));
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return host;
}

// The verbs whose line may be run for another node's client: those dispatch() sends to a table
// (or that make one). Logins, accounts and listings never cross the link.
bool forwardable(const Command& c) {
  switch (c.verb) {
    case Verb::kRegister:
    case Verb::kLogin:
    case Verb::kGuest:
    case Verb::kLogout:
    case Verb::kResume:
    case Verb::kQuit:
    case Verb::kPing:
    case Verb::kWho:
    case Verb::kGames:
    case Verb::kHelp:
    case Verb::kTables:
    case Verb::kStandings:
    case Verb::kLimit:
    case Verb::kNotify:
    case Verb::kVacation:
    case Verb::kHistory:
    case Verb::kChange:
    case Verb::kSignoff:
    case Verb::kSubscribe:
    case Verb::kUnsubscribe:
      return false;
    case Verb::kPreview:
      return c.args.empty() || c.args[0] != "new";
    default:
      return true;
  }
}

// The stand-in of another node's client on the table's owner: the identity its node sent, the
// replies of the command running relayed to it, pushed events dropped (that node reads them
// from the database: remote_follow.h). Its commands run one at a time, in arrival order.
class ProxyClient : public Client {
 public:
  ProxyClient(std::string peer, std::uint64_t cid) : peer_(std::move(peer)), cid_(cid) {}

  void send(const Event& event, bool reply) override {
    if (!reply) return;
    std::lock_guard lock(mutex_);
    if (reply_) reply_->event(json{{"e", event_json(event)}});
  }
  // A resync's replay is part of its answer: relayed in frames well under the link's bound.
  void send_replayed(std::vector<std::shared_ptr<const RenderedEvent>> events) override {
    std::lock_guard lock(mutex_);
    if (!reply_) return;
    json chunk = json::array();
    std::size_t bytes = 0;
    for (const auto& e : events) {
      json j = event_json(e->event());
      bytes += e->event().page.size() + 256;
      chunk.push_back(std::move(j));
      if (bytes >= kReplayChunkBytes) {
        reply_->event(json{{"rp", std::move(chunk)}});
        chunk = json::array();
        bytes = 0;
      }
    }
    if (!chunk.empty()) reply_->event(json{{"rp", std::move(chunk)}});
  }
  void close() override {}
  std::string describe() const override {
    return "node " + peer_ + " client " + std::to_string(cid_);
  }
  std::string address() const override { return "node:" + peer_; }

  void set_reply(std::shared_ptr<cluster::LinkReply> reply) {
    std::lock_guard lock(mutex_);
    reply_ = std::move(reply);
  }
  // Queues `run`; starts it if nothing runs. False if too many wait.
  bool enqueue(std::function<void()> run) {
    {
      std::lock_guard lock(mutex_);
      if (queue_.size() >= kMaxQueuedPerProxy) return false;
      queue_.push_back(std::move(run));
      if (queue_.size() > 1) return true;
    }
    next();
    return true;
  }
  // The command running is over: the next one starts.
  void finished() {
    {
      std::lock_guard lock(mutex_);
      reply_.reset();
      if (!queue_.empty()) queue_.pop_front();
      if (queue_.empty()) return;
    }
    next();
  }

 private:
  void next() {
    std::function<void()> run;
    {
      std::lock_guard lock(mutex_);
      run = queue_.front();
    }
    run();
  }
  std::string peer_;
  std::uint64_t cid_;
  std::mutex mutex_;
  std::shared_ptr<cluster::LinkReply> reply_;
  std::deque<std::function<void()>> queue_;
};

}  // namespace

struct Lobby::Forwarding {
  struct Remote {  // a table another node serves
    std::string game;
    int number = 0;
  };
  struct Home {  // what this node knows of one of its clients' remote tables
    std::uint64_t cid = 0;
    std::set<std::string> peers;                   // the nodes that ran its commands
    std::map<std::int64_t, std::string> followed;  // table id -> "game number"
    std::optional<Remote> current;                 // its current table, served elsewhere
  };
  struct Owners {
    std::vector<std::pair<std::string, store::NodeRow>> owners;
    Clock::time_point until;
  };
  std::mutex mutex;
  std::uint64_t next_cid = 0;
  std::map<const Client*, Home> homes;
  std::map<int, Owners> owners;  // by board number
  double lookup_tokens = kLookupBurst;
  Clock::time_point lookup_refill = Clock::now();
  // Takes one lookup from the bucket; false if empty. With `mutex` held.
  bool take_lookup() {
    const auto now = Clock::now();
    lookup_tokens =
        std::min(kLookupBurst,
                 lookup_tokens + kLookupsPerSecond *
                                     std::chrono::duration<double>(now - lookup_refill).count());
    lookup_refill = now;
    if (lookup_tokens < 1) return false;
    lookup_tokens -= 1;
    return true;
  }
  std::vector<std::pair<store::NodeRow, std::int64_t>> loads;
  Clock::time_point loads_until{};
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::shared_ptr<ProxyClient>> proxies;
};

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
  {
    std::lock_guard lock(f.mutex);
    auto it = f.owners.find(number);
    if (it != f.owners.end() && it->second.until > Clock::now()) {
      owners = it->second.owners;
      cached = true;
    } else if (!f.take_lookup()) {
      throw CommandError("board " + std::to_string(number) +
                         " cannot be looked up now (the server is busy); try again");
    }
  }
  if (!cached) {
    owners = node_->owners_of_number(number).value_or(decltype(owners){});
    std::lock_guard lock(f.mutex);
    if (f.owners.size() >= kMaxCached) f.owners.clear();
    f.owners[number] = {owners, Clock::now() + (owners.empty() ? kMissCacheTime : kOwnerCacheTime)};
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
    home.peers.insert(owner.id);
    req["cid"] = home.cid;
    if (home.current)
      req["current"] = {{"game", home.current->game}, {"number", home.current->number}};
  }
  ctx.deferred = true;
  auto max_seq = std::make_shared<std::int64_t>(0);
  auto fwd = forwarding_;
  const std::string peer = owner.id;
  link_->request(
      owner.id, host_of(owner.address), owner.node_port, std::move(req),
      [client, max_seq](const json& frame) {
        if (auto e = frame.find("e"); e != frame.end()) {
          Event event = event_of(*e);
          *max_seq = std::max(*max_seq, event.seq);
          client->send(event, true);
        } else if (auto rp = frame.find("rp"); rp != frame.end() && rp->is_array()) {
          std::vector<std::shared_ptr<const RenderedEvent>> events;
          for (const auto& j : *rp) {
            events.push_back(std::make_shared<const RenderedEvent>(event_of(j)));
            *max_seq = std::max(*max_seq, events.back()->event().seq);
          }
          client->send_replayed(std::move(events));
        } else {
          throw std::runtime_error("a malformed answer");
        }
      },
      [this, fwd, client, done, max_seq, peer](const json& frame) {
        // The trailer: the table the command was about, where the client stands there.
        std::optional<json> table;
        if (auto t = frame.find("table"); t != frame.end() && t->is_object()) table = *t;
        const std::int64_t seen = *max_seq;
        client->on_strand([this, fwd, client, done, table, seen, peer] {
          if (table) {
            try {
              const std::int64_t id = table->at("id").get<std::int64_t>();
              const std::string game = table->at("game").get<std::string>();
              const int number = table->at("number").get<int>();
              const bool follows =
                  table->at("seated").get<bool>() || table->at("watching").get<bool>();
              const std::int64_t after =
                  seen > 0 ? seen : table->at("last_seq").get<std::int64_t>();
              bool changed = false;
              {
                std::lock_guard lock(fwd->mutex);
                auto& home = fwd->homes[client.get()];
                if (follows) {
                  changed = home.followed.emplace(id, game + " " + std::to_string(number)).second;
                } else {
                  changed = home.followed.erase(id) > 0;
                }
                if (table->at("current").get<bool>())
                  home.current = Forwarding::Remote{game, number};
              }
              if (table->at("current").get<bool>()) client->current.reset();
              if (follows) {
                if (changed) {
                  spdlog::info("forward: {} follows {} {} (table {}) of node {} after seq {}",
                               client->describe(), game, number, id, peer, after);
                }
                if (remote_follow_) remote_follow_->follow(client, id, game, number, after);
              } else if (changed) {
                spdlog::info("forward: {} unfollows {} {} (table {}) of node {}",
                             client->describe(), game, number, id, peer);
                if (remote_follow_) remote_follow_->unfollow(client, id);
              }
            } catch (const std::exception& e) {
              spdlog::error("forward: a bad answer trailer from node {}: {}", peer, e.what());
            }
          }
          if (done) done();
        });
      },
      [client, done, what, peer](cluster::LinkFailure, const std::string& why) {
        spdlog::warn("forward: {} for {}: {}", what, client->describe(), why);
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
  {
    std::lock_guard lock(f.mutex);
    if (f.loads_until > Clock::now()) loads = f.loads;
  }
  if (loads.empty()) {
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
  auto client = ctx.client;
  auto done = ctx.done;
  const std::string line(ctx.line);
  const std::string comment = ctx.comment;
  json req{{"user", client->user}, {"guest", client->guest}, {"line", line}, {"comment", comment}};
  {
    std::lock_guard lock(f.mutex);
    Forwarding::Home& home = f.homes[client.get()];
    if (home.cid == 0) home.cid = ++f.next_cid;
    home.peers.insert(target.id);
    req["cid"] = home.cid;
  }
  ctx.deferred = true;
  auto fwd = forwarding_;
  auto max_seq = std::make_shared<std::int64_t>(0);
  spdlog::debug("forward: a new table of {} goes to node {}", client->describe(), target.id);
  link_->request(
      target.id, host_of(target.address), target.node_port, std::move(req),
      [client, max_seq](const json& frame) {
        auto e = frame.find("e");
        if (e == frame.end()) throw std::runtime_error("a malformed answer");
        Event event = event_of(*e);
        *max_seq = std::max(*max_seq, event.seq);
        client->send(event, true);
      },
      [this, fwd, client, done, max_seq, peer = target.id](const json& frame) {
        std::optional<json> table;
        if (auto t = frame.find("table"); t != frame.end() && t->is_object()) table = *t;
        const std::int64_t seen = *max_seq;
        client->on_strand([this, fwd, client, done, table, seen, peer] {
          if (table) {
            try {
              const std::int64_t id = table->at("id").get<std::int64_t>();
              const std::string game = table->at("game").get<std::string>();
              const int number = table->at("number").get<int>();
              const std::int64_t after =
                  seen > 0 ? seen : table->at("last_seq").get<std::int64_t>();
              const bool follows =
                  table->at("seated").get<bool>() || table->at("watching").get<bool>();
              {
                std::lock_guard lock(fwd->mutex);
                auto& home = fwd->homes[client.get()];
                if (follows) home.followed.emplace(id, game + " " + std::to_string(number));
                if (table->at("current").get<bool>())
                  home.current = Forwarding::Remote{game, number};
              }
              if (table->at("current").get<bool>()) client->current.reset();
              spdlog::info(
                  "forward: {} opened {} {} (table {}) on node {}; follows it after seq {}",
                  client->describe(), game, number, id, peer, after);
              if (follows && remote_follow_)
                remote_follow_->follow(client, id, game, number, after);
            } catch (const std::exception& e) {
              spdlog::error("forward: a bad answer trailer from node {}: {}", peer, e.what());
            }
          }
          if (done) done();
        });
      },
      [this, client, done, line, comment, peer = target.id](cluster::LinkFailure kind,
                                                            const std::string& why) {
        client->on_strand([this, client, done, line, comment, peer, kind, why] {
          if (kind == cluster::LinkFailure::kNotSent) {
            // Nothing was made there: make it here.
            spdlog::warn("forward: a new table for {} stays here: {}", client->describe(), why);
            run_line(client, line, done, comment, true);
            return;
          }
          client->send(error_event("the new table was sent to node " + peer +
                                   ", which cannot be reached now: see 'tables' and try again"),
                       true);
          if (done) done();
        });
      });
  return true;
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

// ---- the table's owner ----

void Lobby::serve_forwarded(const cluster::LinkOrigin& from, json frame,
                            std::shared_ptr<cluster::LinkReply> reply) {
  if (!forwarding_) return;  // set_link() was not called: nothing is served for others
  auto uint_field = [&](const char* name) {
    auto it = frame.find(name);
    if (it == frame.end() || !it->is_number_unsigned()) {
      throw std::runtime_error(std::string("no ") + name);
    }
    return it->get<std::uint64_t>();
  };
  auto text_field = [&](const char* name, std::size_t max) {
    auto it = frame.find(name);
    if (it == frame.end() || !it->is_string() || it->get_ref<const std::string&>().size() > max) {
      throw std::runtime_error(std::string("no or too long ") + name);
    }
    return it->get<std::string>();
  };
  const std::uint64_t cid = uint_field("cid");
  const auto key = std::make_pair(from.serial, cid);
  if (!reply) {  // a note
    if (text_field("what", 16) != "gone") return;
    std::shared_ptr<ProxyClient> proxy;
    {
      std::lock_guard lock(forwarding_->mutex);
      auto it = forwarding_->proxies.find(key);
      if (it == forwarding_->proxies.end()) return;
      proxy = it->second;
      forwarding_->proxies.erase(it);
    }
    for (const auto& t : proxy->watched_tables()) t->watcher_closed(proxy);
    return;
  }
  const std::string user = text_field("user", 64);
  const std::string line = text_field("line", kMaxLineBytes);
  const std::string comment = text_field("comment", kMaxCommentBytes);
  auto g = frame.find("guest");
  if (g == frame.end() || !g->is_boolean()) throw std::runtime_error("no guest flag");
  const bool guest = g->get<bool>();
  std::optional<std::pair<std::string, int>> current;
  if (auto c = frame.find("current"); c != frame.end()) {
    if (!c->is_object() || !c->contains("game") || !(*c)["game"].is_string() ||
        !c->contains("number") || !(*c)["number"].is_number_integer()) {
      throw std::runtime_error("a bad current table");
    }
    current = {(*c)["game"].get<std::string>(), (*c)["number"].get<int>()};
  }
  std::shared_ptr<ProxyClient> proxy;
  {
    std::lock_guard lock(forwarding_->mutex);
    auto& p = forwarding_->proxies[key];
    if (!p) {
      if (forwarding_->proxies.size() > 100000) {
        forwarding_->proxies.erase(key);
        throw std::runtime_error("too many stand-in clients");
      }
      p = std::make_shared<ProxyClient>(from.peer, cid);
    }
    proxy = p;
  }
  auto run = [this, proxy, reply, user, guest, line, comment, current] {
    proxy->user = user;
    proxy->guest = guest;
    proxy->set_reply(reply);
    std::optional<Command> command;
    try {
      command = parse_command(line);
    } catch (const CommandError&) {
    }
    if (!command || !forwardable(*command)) {
      proxy->send(error_event("this command is not run for another node"), true);
      reply->done(json::object());
      proxy->finished();
      return;
    }
    // The client's node keeps its current table: the same here, whatever this stand-in saw.
    if (current) {
      if (auto t = find_table(current->first, current->second)) proxy->current = t;
    }
    handle(
        proxy, line,
        [this, proxy, reply, command] {
          std::shared_ptr<Table> table;
          if (command->board) {
            if (!command->game.empty()) {
              table = find_table(command->game, *command->board);
            } else if (auto found = directory_.with_number(*command->board); found.size() == 1) {
              table = found.front();
            }
          } else {
            table = proxy->current.lock();
          }
          if (!table) {
            reply->done(json::object());
            proxy->finished();
            return;
          }
          const bool current = proxy->current.lock() == table;
          table->follow_state(
              proxy, proxy->user,
              [proxy, reply, table, current](bool seated, bool watching, std::int64_t last_seq) {
                reply->done(json{{"table",
                                  {{"id", table->id()},
                                   {"game", table->game_name()},
                                   {"number", table->number()},
                                   {"seated", seated},
                                   {"watching", watching},
                                   {"last_seq", last_seq},
                                   {"current", current}}}});
                proxy->finished();
              });
        },
        comment);
  };
  if (!proxy->enqueue(run)) {
    reply->event(json{{"e", event_json(error_event("too many commands waiting; try again"))}});
    reply->done(json::object());
  }
}

void Lobby::forget_forwarded(const cluster::LinkOrigin& from) {
  if (!forwarding_) return;
  std::vector<std::shared_ptr<ProxyClient>> gone;
  {
    std::lock_guard lock(forwarding_->mutex);
    for (auto it = forwarding_->proxies.begin(); it != forwarding_->proxies.end();) {
      if (it->first.first == from.serial) {
        gone.push_back(it->second);
        it = forwarding_->proxies.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& p : gone) {
    for (const auto& t : p->watched_tables()) t->watcher_closed(p);
  }
}

}  // namespace plateau::server
