// libFuzzer target: parse_command must either return a command, nullopt, or throw CommandError
// for any input; anything else (a crash, another exception, a sanitizer report) is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "server/command.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view line(reinterpret_cast<const char*>(data), size);
  try {
    auto c = plateau::server::parse_command(line);
    if (c) {
      // Every parsed command names a verb and keeps its pieces within the line's size.
      (void)plateau::server::verb_name(c->verb);
      if (c->text.size() > size) __builtin_trap();
    }
  } catch (const plateau::server::CommandError&) {
  }
  return 0;
}
