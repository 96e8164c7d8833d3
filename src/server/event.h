#pragma once
// What the server tells a client: one Event per reply or notification, built once by the
// command layer and rendered per transport (render.h): JSON for WebSocket, text for TCP.
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "server/table_event.h"

namespace plateau::server {

struct Event {
  // "ok", "error", "welcome", "login", "list", "table", "start", "move", "board", "gameover",
  // "chat", "challenge", "request", "queued", "bye".
  std::string type;
  nlohmann::json data = nlohmann::json::object();
  // The board page (specs/phutball.md §9.2 layout) where the event carries one. The text
  // renderer prints it; the JSON renderer sends it as "page" only for "board" events.
  std::string page;
  // A table event's sequence number (1, 2, 3, ... per table, without gaps; table_events.h);
  // 0 for what is meant only for the caller (ok, error, show, ...). The JSON renderer sends it
  // as "seq"; the text renderer never shows it.
  std::int64_t seq = 0;
};

// An event rendered at most once per transport family and shared by every recipient: the
// table hands the same RenderedEvent to each connection, and each asks for its family's bytes.
// Thread-safe (sessions render on their own strands).
class RenderedEvent {
 public:
  explicit RenderedEvent(Event event) : event_(std::move(event)) {}
  // A table event, rendered into its message (render.h: table_event_message) at once: the
  // stored form and every transport's bytes come from that message.
  explicit RenderedEvent(const TableEvent& event);
  // A table's answer to its caller alone (render.h: reply_message).
  explicit RenderedEvent(const TableShown& shown);
  explicit RenderedEvent(const BoardShown& shown);
  explicit RenderedEvent(const PlyShown& shown);
  const Event& event() const { return event_; }
  // render_text(event()) and render_json(event()) (render.h), computed on first use, then the
  // same bytes for everyone.
  std::shared_ptr<const std::string> text() const;
  std::shared_ptr<const std::string> json() const;

 private:
  Event event_;
  mutable std::once_flag text_once_, json_once_;
  mutable std::shared_ptr<const std::string> text_, json_;
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
