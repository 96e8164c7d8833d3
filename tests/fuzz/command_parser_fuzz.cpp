// libFuzzer target `command_parser`: the command line of the text port and the WebSocket
// (server/command.h). parse_command must return a command, nullopt, or throw CommandError for
// any input; anything else (a crash, another exception, a sanitizer report) is a bug. A parsed
// command carries no control character in any field (they would reach other players' screens
// through chat, names and table options), and no field is longer than the line.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "server/command.h"

namespace {

void check_field(std::string_view field, std::size_t size, const char* what) {
  FUZZ_CHECK(field.size() <= size, std::string(what) + " longer than the line");
  for (char c : field) {
    const auto u = static_cast<unsigned char>(c);
    FUZZ_CHECK(!((u < 0x20 && c != '\t') || u == 0x7f),
               std::string(what) + " holds control character " + std::to_string(u));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view line = plateau::fuzz::as_text(data, size);
  try {
    auto c = plateau::server::parse_command(line);
    if (!c) return 0;
    (void)plateau::server::verb_name(c->verb);
    check_field(c->game, size, "game");
    check_field(c->text, size, "text");
    for (const auto& a : c->args) check_field(a, size, "an argument");
    for (const auto& [k, v] : c->params) {
      check_field(k, size, "a parameter name");
      check_field(v, size, "a parameter value");
    }
    for (const auto& f : c->flags) check_field(f, size, "a flag");
    if (c->ply_check) FUZZ_CHECK(*c->ply_check >= 0, "negative #n");
  } catch (const plateau::server::CommandError&) {
  }
  return 0;
}
