#pragma once
// The one way the server writes JSON. nlohmann's dump() throws type_error.316 on invalid UTF-8;
// a string that slipped past the edge checks (docs/SECURITY.md) must never take a table or the
// server down, so every JSON text the server writes goes through json_text(), which writes
// U+FFFD for each invalid byte instead of throwing.
#include <nlohmann/json.hpp>
#include <string>

namespace plateau::server {

// `j` as compact JSON text (no spaces, no line end). Never throws on string contents.
inline std::string json_text(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace plateau::server
