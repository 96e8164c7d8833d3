#pragma once
// What the server tells a client: one Event per reply or notification, built once by the
// command layer and rendered per transport (render.h): JSON for WebSocket, text for TCP.
#include <nlohmann/json.hpp>
#include <string>

namespace plateau::server {

struct Event {
  // "ok", "error", "welcome", "login", "list", "table", "start", "move", "board", "gameover",
  // "chat", "challenge", "request", "queued", "bye".
  std::string type;
  nlohmann::json data = nlohmann::json::object();
  // The board page (specs/phutball.md §9.2 layout) where the event carries one. The text
  // renderer prints it; the JSON renderer sends it as "page" only for "board" events.
  std::string page;
};

inline Event ok_event(std::string text) {
  Event e{"ok", {{"text", std::move(text)}}, {}};
  return e;
}

inline Event error_event(std::string message) {
  Event e{"error", {{"message", std::move(message)}}, {}};
  return e;
}

}  // namespace plateau::server
