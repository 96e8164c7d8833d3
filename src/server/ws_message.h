#pragma once
// Decoding of one received WebSocket text message into a command line (ws_session.h): either
// the message is the command line itself, or, when it starts with '{', the JSON object
// {"cmd": "LINE", "id": N}. Pure (no I/O, no session state) so that tests/fuzz can call it.
#include <string>

namespace plateau::server {

// What a text message asks for: the command line and the request id its replies carry ("re"),
// or an error to answer instead (then `line` is empty).
struct WsRequest {
  std::string line;   // the command line to run (may be empty: a blank line)
  long long id = -1;  // the JSON "id" when it is an integer, else -1
  std::string error;  // non-empty when the message is not a valid request
};

// Decodes the text of one message (at most kMaxWsMessage bytes, checked by the transport).
// A message starting with '{' must be a JSON object whose "cmd" is a string, else `error` says
// what is expected; any other message is taken whole as the line. Never throws on any input.
WsRequest decode_ws_message(std::string text);

}  // namespace plateau::server
