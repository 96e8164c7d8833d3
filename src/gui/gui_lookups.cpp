#include "gui/gui_lookups.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "compat/biloba/discovery.h"

namespace plateau::gui {

struct LanListener::State {
  mutable std::mutex mu;
  std::vector<std::string> hosts;
  std::atomic<bool> stop{false};
};

LanListener::LanListener() : state_(std::make_shared<State>()) {
  std::thread([s = state_] {
    while (!s->stop) {
      try {
        const auto found = biloba::net::scan_servers(std::chrono::milliseconds(1500));
        std::lock_guard lock(s->mu);
        for (const auto& server : found) {
          if (std::find(s->hosts.begin(), s->hosts.end(), server.host) == s->hosts.end()) {
            s->hosts.push_back(server.host);
          }
        }
      } catch (const std::exception&) {
        return;  // UDP 8001 taken: no discovery, a server can still be typed
      }
    }
  }).detach();
}

LanListener::~LanListener() { state_->stop = true; }

std::vector<std::string> LanListener::hosts() const {
  std::lock_guard lock(state_->mu);
  return state_->hosts;
}

struct GameListFetch::State {
  mutable std::mutex mu;
  bool done = false;
  std::string error;
  std::vector<biloba::net::ListedGame> games;
};

GameListFetch::GameListFetch(const std::string& host, unsigned short port, int players)
    : state_(std::make_shared<State>()) {
  std::thread([s = state_, host, port, players] {
    std::vector<biloba::net::ListedGame> games;
    std::string error;
    try {
      games = biloba::net::list_games(host, port, players);
    } catch (const std::exception& e) {
      error = e.what();
    }
    std::lock_guard lock(s->mu);
    s->games = std::move(games);
    s->error = std::move(error);
    s->done = true;
  }).detach();
}

bool GameListFetch::done() const {
  std::lock_guard lock(state_->mu);
  return state_->done;
}

std::string GameListFetch::error() const {
  std::lock_guard lock(state_->mu);
  return state_->error;
}

std::vector<biloba::net::ListedGame> GameListFetch::games() const {
  std::lock_guard lock(state_->mu);
  return state_->games;
}

}  // namespace plateau::gui
