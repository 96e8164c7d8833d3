#pragma once
// The command in flight inside the Lobby's handlers (lobby*.cpp only): who sent it, how to
// answer, and what to run when it is done.
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "server/client.h"
#include "server/lobby.h"
#include "server/table.h"

namespace plateau::server {

struct Lobby::Ctx {
  std::shared_ptr<Client> client;
  std::function<void()> done;
  bool deferred = false;  // `done` is called later (a table or a worker finishes the command)
  // The command line as the client sent it and its comment: what the node link forwards.
  std::string_view line;
  std::string comment;
  bool local_only = false;  // run here even if another node should (lobby_forward.cpp)
  void reply(const Event& e) { client->send(e, true); }
  Caller caller() const { return Caller{client->user, client->guest, client}; }
};

// A `list` event: `what`, its items and the text lines.
inline Event list_event(const std::string& what, nlohmann::json items,
                        std::vector<std::string> lines) {
  return Event{
      "list", {{"what", what}, {"items", std::move(items)}, {"lines", std::move(lines)}}, {}};
}

}  // namespace plateau::server
