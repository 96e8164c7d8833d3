// libFuzzer target `ws_message`: what the WebSocket transport does with a received text message
// (server/ws_message.h: plain line or {"cmd": LINE, "id": N}), then the command parser on the
// line it yields, as Session::on_input -> Lobby::handle does. decode_ws_message never throws.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "server/command.h"
#include "server/ws_message.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(plateau::fuzz::as_text(data, size));
  const plateau::server::WsRequest request = plateau::server::decode_ws_message(text);
  if (!request.error.empty()) {
    FUZZ_CHECK(request.line.empty() && request.id == -1, "an error with a line or an id");
    FUZZ_CHECK(!text.empty() && text.front() == '{', "a plain line rejected: " + request.error);
    return 0;
  }
  if (text.empty() || text.front() != '{') {
    FUZZ_CHECK(request.line == text && request.id == -1, "a plain line changed");
  }
  try {
    auto c = plateau::server::parse_command(request.line);
    if (c) (void)plateau::server::verb_name(c->verb);
  } catch (const plateau::server::CommandError&) {
  }
  return 0;
}
