// Commands forwarded by another node over the node link, run on the table's owner (issue 16
// item 2; docs/CLUSTER.md "Forwarding"): each for a stand-in client (ProxyClient) of that
// node's client, which relays the replies and drops the pushed events (that node reads them
// from the database: remote_follow.h). The client's side: lobby_forward.cpp.
#include "server/lobby_ctx.h"
#include "server/lobby_forwarding.h"

namespace plateau::server {

using namespace forwarding;

namespace {

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
      return false;
    case Verb::kSubscribe:
    case Verb::kUnsubscribe:
      // A board's subscribers are its table's (its mail goes to them): `unsubscribe all` stays
      // on the client's node, for the boards served there.
      return c.board.has_value();
    case Verb::kPreview:
      return c.args.empty() || c.args[0] != "new";
    default:
      return true;
  }
}

}  // namespace

// ---- the table's owner ----

void Lobby::serve_forwarded(const cluster::LinkOrigin& from, json frame,
                            std::shared_ptr<cluster::LinkReply> reply) {
  if (!forwarding_) return;  // set_link() was not called: nothing is served for others
  if (frame.contains("record")) {
    // GET /records on another node (lobby_records.cpp): no client, so before "cid". A bad
    // request throws (record_request_of), which cuts that link.
    if (!reply) throw std::runtime_error("a record request as a note");
    fetch_record(record_request_of(frame), true,
                 [reply](const RecordAnswer& a) { reply->done(record_reply_json(a)); });
    return;
  }
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
      p = std::make_shared<ProxyClient>(from.peer, cid, [this](const std::string& game, int n) {
        auto t = find_table(game, n);
        return t ? t->id() : std::int64_t{0};
      });
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
          // Only leaving ends the client's following: a stand-in made again (a new link
          // connection, a new owner) does not watch what its client still watches.
          const bool left = command->verb == Verb::kLeave;
          table->follow_state(proxy, proxy->user,
                              [proxy, reply, table, current, left](bool seated, bool watching,
                                                                   std::int64_t last_seq) {
                                reply->done(json{{"table",
                                                  {{"id", table->id()},
                                                   {"game", table->game_name()},
                                                   {"number", table->number()},
                                                   {"seated", seated},
                                                   {"watching", watching},
                                                   {"last_seq", last_seq},
                                                   {"current", current},
                                                   {"left", left}}}});
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
