// libFuzzer target `biloba_blb`: a biloba 0.9.3 `.blb` replay file (compat/biloba/blb.h), as
// `biloba --replay` reads it, then replayed through the click machine (replay_game) as the
// client shows it. decode_blb throws RecordError only; the format has one encoding, so a file
// that decodes encodes back to the same bytes.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "fuzz_check.h"
#include "compat/biloba/blb.h"
#include "compat/biloba/click_game.h"

namespace net = plateau::biloba::net;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(plateau::fuzz::as_text(data, size));
  net::BlbGame game;
  try {
    game = net::decode_blb(bytes);
  } catch (const plateau::RecordError&) {
    return 0;
  }
  FUZZ_CHECK(game.names.size() >= 2 && game.names.size() <= 4, "players");
  FUZZ_CHECK(net::encode_blb(game) == bytes, "a decoded file encodes to other bytes");
  const net::GameOutcome out = net::replay_game(game, std::chrono::milliseconds(0));
  FUZZ_CHECK(out.turns.size() <= game.records.size(), "more turns than clicks");
  FUZZ_CHECK(out.finished || out.left_seat >= 0, "a replay that neither ends nor leaves");
  return 0;
}
