// libFuzzer target `command_parser`: the command line of the text port and the WebSocket
// (server/command.h). parse_command must return a command, nullopt, or throw CommandError for
// any input; anything else (a crash, another exception, a sanitizer report) is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "server/command.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view line = plateau::fuzz::as_text(data, size);
  try {
    auto c = plateau::server::parse_command(line);
    if (c) {
      // Every parsed command names a verb and keeps its pieces within the line's size.
      (void)plateau::server::verb_name(c->verb);
      FUZZ_CHECK(c->text.size() <= size, "command text longer than the line");
    }
  } catch (const plateau::server::CommandError&) {
  }
  return 0;
}
