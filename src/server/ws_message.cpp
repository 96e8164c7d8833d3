#include "server/ws_message.h"

#include <nlohmann/json.hpp>

namespace plateau::server {

WsRequest decode_ws_message(std::string text) {
  WsRequest out;
  if (text.empty() || text.front() != '{') {
    out.line = std::move(text);
    return out;
  }
  // parse() without exceptions: invalid JSON (and invalid UTF-8 inside strings) is discarded.
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("cmd") || !j["cmd"].is_string()) {
    out.error = "bad JSON command: expected {\"cmd\": \"LINE\", \"id\": N}";
    return out;
  }
  out.line = j["cmd"].get<std::string>();
  // An unsigned id above LLONG_MAX converts modulo 2^64 (a negative id: replies carry no "re").
  if (j.contains("id") && j["id"].is_number_integer()) out.id = j["id"].get<long long>();
  return out;
}

}  // namespace plateau::server
