#pragma once
// The two renderers of the command layer's events (docs/PROTOCOL.md).
#include <string>

#include "server/event.h"

namespace plateau::server {

// Text transport: human-readable lines, each ending in "\n". Errors start with "error: ".
std::string render_text(const Event& event);

// WebSocket: one JSON object {"type": ..., ...data}; "seq" for a table event (Event::seq > 0);
// `re` >= 0 adds "re": re (the id of the command answered).
std::string render_json(const Event& event, long long re = -1);

// The message of a table event (render_table.cpp): its wire type, its JSON data (with the
// sentence a player reads in "text"), its page and its seq. The same message every time for
// the same event, so that a replayed event has the bytes of the live one. Never throws for
// invalid UTF-8 (render_json replaces it).
Event table_event_message(const TableEvent& event);
// The message of a table's answer to its caller: a "table" one (or "board" with its page).
Event reply_message(const TableShown& shown);
Event reply_message(const BoardShown& shown);
Event reply_message(const PlyShown& shown);

}  // namespace plateau::server
