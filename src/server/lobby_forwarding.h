#pragma once
// What lobby_forward.cpp (the client's node) and lobby_forwarded.cpp (the table's owner) share:
// the forwarding's bounds, an Event as it crosses the node link, the stand-in client of another
// node's client, and the Lobby's forwarding state. For those two files only.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cluster/node_link.h"
#include "server/client.h"
#include "server/event.h"
#include "server/lobby.h"
#include "server/lobby_forward_cache.h"

namespace plateau::server::forwarding {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr auto kLoadCacheTime = std::chrono::seconds(1);
// Owner lookups in the database (a board not served here, not cached) per second, node-wide, and
// their burst: strangers naming board after board cannot keep the database and the I/O threads
// busy.
constexpr double kLookupsPerSecond = 100;
constexpr double kLookupBurst = 200;
constexpr std::size_t kMaxCommentBytes = 64 * 1024;
constexpr std::size_t kMaxQueuedPerProxy = 8;          // forwarded commands waiting per client
constexpr std::size_t kReplayChunkBytes = 256 * 1024;  // a resync's events per frame, about

// The host of a nodes row's address (HOST:PORT, [IPV6]:PORT): where its node link listens.
inline std::string host_of(const std::string& address) {
  std::string host = address.substr(0, address.rfind(':'));
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return host;
}

// An Event as a link frame carries it.
inline json event_json(const Event& e) {
  return json{{"type", e.type}, {"data", e.data}, {"page", e.page}, {"seq", e.seq}};
}

// The peer is authenticated, but its frames are still checked for shape: a bad one throws,
// which closes that link (node_link.h).
inline Event event_of(const json& j) {
  if (!j.is_object() || !j.at("type").is_string() || !j.at("page").is_string() ||
      !j.at("seq").is_number_integer()) {
    throw std::runtime_error("a malformed event");
  }
  return Event{j["type"].get<std::string>(), j["data"], j["page"].get<std::string>(),
               j["seq"].get<std::int64_t>()};
}

// The stand-in of another node's client on the table's owner: the identity its node sent, the
// replies of the command running relayed to it, pushed events dropped (that node reads them
// from the database: remote_follow.h). Its commands run one at a time, in arrival order.
class ProxyClient : public Client {
 public:
  // `table_id(game, number)`: the id of a table served here (0 if none).
  using TableId = std::function<std::int64_t(const std::string& game, int number)>;
  ProxyClient(std::string peer, std::uint64_t cid, TableId table_id)
      : peer_(std::move(peer)), cid_(cid), table_id_(std::move(table_id)) {}

  // A table event (seq > 0) goes with its table's id: the client's node moves the client's
  // place in that table's feed past it at once, so that the feed does not tell it again.
  void send(const Event& event, bool reply) override {
    if (!reply) return;
    json frame{{"e", event_json(event)}};
    if (event.seq > 0 && event.data.is_object() && event.data.contains("game") &&
        event.data.contains("board") && event.data["game"].is_string() &&
        event.data["board"].is_number_integer()) {
      if (const std::int64_t id =
              table_id_(event.data["game"].get<std::string>(), event.data["board"].get<int>())) {
        frame["table"] = id;
      }
    }
    std::lock_guard lock(mutex_);
    if (reply_) reply_->event(std::move(frame));
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
  // Its client: that node's id and the client's id there (user_notice.h `skip`).
  const std::string& peer() const { return peer_; }
  std::uint64_t cid() const { return cid_; }

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
  TableId table_id_;
  std::mutex mutex_;
  std::shared_ptr<cluster::LinkReply> reply_;
  std::deque<std::function<void()>> queue_;
};

}  // namespace plateau::server::forwarding

namespace plateau::server {

struct Lobby::Forwarding {
  using Clock = forwarding::Clock;
  struct Remote {  // a table another node serves
    std::string game;
    int number = 0;
  };
  struct Home {  // what this node knows of one of its clients' remote tables
    std::uint64_t cid = 0;
    std::set<std::string> peers;                   // the nodes that ran its commands
    std::map<std::int64_t, std::string> followed;  // table id -> "game number"
    std::optional<Remote> current;                 // its current table, served elsewhere
    int board = 0;      // the board number of its command in flight (0: a new table)
    int looked_up = 0;  // the board its command in flight was looked up for (on the feed)
    bool loads_looked_up = false;  // the nodes' loads were read for its command in flight
  };
  // Owner `peer` answered the command in flight of `client` for a board, with its table or
  // without (lobby_forward_cache.h).
  void answered(const Client* client, const std::string& peer, bool with_table) {
    std::lock_guard lock(mutex);
    auto home = homes.find(client);
    if (home == homes.end() || home->second.board == 0) return;
    owners.answered(std::exchange(home->second.board, 0), peer, with_table, Clock::now());
  }
  void remember(int number, forwarding::OwnerCache::Owners found) {
    std::lock_guard lock(mutex);
    owners.remember(number, std::move(found), Clock::now());
  }
  void forget_owner(int number, const std::string& peer) {
    std::lock_guard lock(mutex);
    owners.unreachable(number, peer);
  }
  std::mutex mutex;
  std::uint64_t next_cid = 0;
  std::map<const Client*, Home> homes;
  forwarding::OwnerCache owners;  // by board number
  double lookup_tokens = forwarding::kLookupBurst;
  Clock::time_point lookup_refill = Clock::now();
  // Takes one lookup from the bucket; false if empty. With `mutex` held.
  bool take_lookup() {
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - lookup_refill).count();
    lookup_tokens =
        std::min(forwarding::kLookupBurst, lookup_tokens + forwarding::kLookupsPerSecond * elapsed);
    lookup_refill = now;
    if (lookup_tokens < 1) return false;
    lookup_tokens -= 1;
    return true;
  }
  std::vector<std::pair<store::NodeRow, std::int64_t>> loads;
  Clock::time_point loads_until{};
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::shared_ptr<forwarding::ProxyClient>>
      proxies;
};

}  // namespace plateau::server
