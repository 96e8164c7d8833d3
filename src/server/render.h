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

}  // namespace plateau::server
