// libFuzzer target `record`: a game record (core/record.h) as uploaded or stored, parsed and
// replayed through the rules of the game its tags name. parse_record and replay_record throw
// RecordError only. A record that replays is written back (write_record) and that text replays
// to the same moves, the same start and the same final position.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "core/record.h"
#include "fuzz_check.h"
#include "games/register.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  plateau::register_builtin_games();
  const std::string_view text = plateau::fuzz::as_text(data, size);
  plateau::Record record;
  try {
    record = plateau::parse_record(text);
  } catch (const plateau::RecordError&) {
    return 0;
  }
  plateau::ReplayedGame game;
  try {
    game = plateau::replay_record(record);
  } catch (const plateau::RecordError&) {
    return 0;
  }
  plateau::RecordHeader header;
  header.seats = game.seats;
  const std::string written = plateau::write_record(*game.initial, game.moves, header);
  try {
    const plateau::ReplayedGame again = plateau::load_record(written);
    FUZZ_CHECK(again.game->spec() == game.game->spec(), "game spec changed:\n" + written);
    FUZZ_CHECK(again.initial->equals(*game.initial), "start changed:\n" + written);
    FUZZ_CHECK(again.moves == game.moves, "moves changed:\n" + written);
    FUZZ_CHECK(again.state->equals(*game.state), "final position changed:\n" + written);
    FUZZ_CHECK(again.seats == game.seats, "seats changed:\n" + written);
  } catch (const plateau::RecordError& e) {
    FUZZ_CHECK(false, std::string("written record fails: ") + e.what() + "\n" + written);
  }
  return 0;
}
