#include "cli/cli_common.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "core/registry.h"

namespace plateau::cli {

std::string read_input(const std::string& path) {
  if (path == "-") {
    return std::string(std::istreambuf_iterator<char>(std::cin), {});
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read record file '" + path + "'");
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

std::string seat_count_message(const std::string& what, std::size_t got, const Game& game) {
  const GameInfo& info = game.info();
  std::string message = what + " needs " + std::to_string(game.num_seats()) + " entries for " +
                        game.spec() + ", got " + std::to_string(got);
  if (info.seat_count_option.empty()) {
    return message + " (" + info.name + " always has " + std::to_string(info.min_seats) +
           " seats)";
  }
  const auto in_range = got >= static_cast<std::size_t>(info.min_seats) &&
                        got <= static_cast<std::size_t>(info.max_seats);
  if (in_range) {
    return message + "; for " + std::to_string(got) + " seats name the game '" + info.name + "(" +
           info.seat_count_option + "=" + std::to_string(got) + ")'";
  }
  return message + " (" + info.name + " has " + std::to_string(info.min_seats) + " to " +
         std::to_string(info.max_seats) + " seats, set by its option '" +
         info.seat_count_option + "')";
}

ReplayedGame load_position(const std::string& game_spec, const std::string& record_path) {
  auto game = make_game(game_spec);
  if (record_path.empty()) {
    ReplayedGame out;
    out.game = game;
    out.initial = game->initial_state();
    out.state = out.initial->clone();
    return out;
  }
  ReplayedGame out = load_record(read_input(record_path));
  if (out.game->name() != game->name()) {
    throw UsageError("the record is a " + out.game->name() + " game, not " + game->name());
  }
  if (game_spec.find('(') != std::string::npos && out.game->spec() != game->spec()) {
    throw UsageError("the record's game is " + out.game->spec() + ", not " + game->spec());
  }
  return out;
}

}  // namespace plateau::cli
