#pragma once
// The menu's look-ups on the network, each on a thread of its own so that the window keeps
// drawing: the servers heard on the LAN (UDP 8001 announcements, compat/biloba/discovery.h) and
// a server's open games (LISTGAME, compat/biloba/legacy_client.h).
#include <memory>
#include <string>
#include <vector>

#include "compat/biloba/legacy_client.h"

namespace plateau::gui {

// Listens on UDP 8001 until destroyed; hosts() lists the servers heard, in the order heard.
// When the port cannot be bound (another program holds it without sharing) nothing is heard.
class LanListener {
 public:
  LanListener();
  ~LanListener();
  std::vector<std::string> hosts() const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

// One LISTGAME for `players` players on host:port.
class GameListFetch {
 public:
  GameListFetch(const std::string& host, unsigned short port, int players);
  bool done() const;
  // After done(): the connection's error ("" when it worked) and the games listed.
  std::string error() const;
  std::vector<biloba::net::ListedGame> games() const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace plateau::gui
