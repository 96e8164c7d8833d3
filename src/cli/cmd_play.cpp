// `plateau play GAME --seats human,random`: play in the terminal, any mix of people and bots.
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>

#include "ai/bot.h"
#include "cli/cli_checks.h"
#include "cli/cli_common.h"
#include "core/error.h"
#include "core/text.h"

namespace plateau::cli {

namespace {

struct PlayOptions {
  std::string game;
  std::string seats = "human,random";
  std::string names;
  std::string record;
  std::string save;
  std::uint64_t seed = 0;
  std::int64_t movetime = 0;
};

std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::localtime(&t));
  return buf;
}

std::string default_save_path(const std::string& game) {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::localtime(&t));
  return game + "-" + buf + ".record";
}

const char* kHelp =
    "Enter a move in the game's notation, or one of:\n"
    "  moves    list the legal moves\n"
    "  board    show the board\n"
    "  undo     take back your last move (and the bot replies after it)\n"
    "  quit     stop now (the record is saved unfinished)\n"
    "  help     this text\n";

void run_play(const PlayOptions& opt) {
  ReplayedGame g = load_position(opt.game, opt.record);
  const Game& game = *g.game;
  const int n = game.num_seats();

  std::vector<std::string> kinds;
  for (std::string_view s : split(opt.seats, ',')) kinds.push_back(to_lower(trim(s)));
  if (static_cast<int>(kinds.size()) != n) {
    throw UsageError(seat_count_message("--seats", kinds.size(), game));
  }
  std::vector<std::unique_ptr<Bot>> bots(n);
  for (int s = 0; s < n; ++s) {
    if (kinds[s] == "human") continue;
    if (!is_bot_for(kinds[s], game)) {
      throw UsageError("bad seat '" + kinds[s] + "': expected human or a bot that plays " +
                       game.name() + " (" + bot_names_for(game) + ")");
    }
    BotOptions bo;
    bo.seed = opt.seed + static_cast<std::uint64_t>(s);
    bo.movetime_ms = opt.movetime;
    bots[s] = make_bot(kinds[s], bo);
  }
  std::vector<std::string> names = g.seats;
  if (!opt.names.empty()) {
    names.clear();
    for (std::string_view s : split(opt.names, ',')) names.emplace_back(trim(s));
  }
  if (names.empty()) names = kinds;

  std::vector<Move> moves = g.moves;
  std::vector<bool> by_human(moves.size(), false);
  auto rebuild = [&] {
    auto s = g.initial->clone();
    for (const Move& m : moves) s->apply(m);
    return s;
  };
  auto state = g.state->clone();
  const std::string save_path = opt.save.empty() ? default_save_path(game.name()) : opt.save;
  auto save = [&] {
    RecordHeader header;
    header.seats = names;
    header.date = today();
    std::ofstream out(save_path);
    out << write_record(*g.initial, moves, header);
    if (!out) throw UsageError("cannot write record file '" + save_path + "'");
    std::cout << "Record saved to " << save_path << "\n";
  };

  std::cout << game.spec() << ": " << n << " seats (" << opt.seats << "). Type 'help' for help.\n";
  bool show_board = true;
  while (!state->is_terminal()) {
    const int seat = state->current_seat();
    if (bots[seat]) {
      Move m = bots[seat]->choose_move(*state);
      std::cout << game.seat_label(seat) << " (" << names[seat] << ") plays "
                << state->move_to_string(m) << "\n";
      state->apply(m);
      moves.push_back(m);
      by_human.push_back(false);
      show_board = true;
      continue;
    }
    if (show_board) std::cout << "\n" << state->to_text(names);
    show_board = false;
    std::cout << game.seat_label(seat) << " (" << names[seat] << ") to move> " << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) {
      std::cout << "\nEnd of input: stopping.\n";
      save();
      return;
    }
    const std::string cmd = to_lower(trim(line));
    if (cmd.empty()) continue;
    if (cmd == "help" || cmd == "?") {
      std::cout << kHelp;
    } else if (cmd == "moves") {
      std::vector<std::string> list;
      for (const Move& m : state->legal_moves()) list.push_back(state->move_to_string(m));
      std::sort(list.begin(), list.end());
      std::cout << join(list, " ") << "\n";
    } else if (cmd == "board") {
      show_board = true;
    } else if (cmd == "quit") {
      save();
      return;
    } else if (cmd == "undo") {
      auto last_human = std::find(by_human.rbegin(), by_human.rend(), true);
      if (last_human == by_human.rend()) {
        std::cout << "Nothing to undo.\n";
        continue;
      }
      const std::size_t keep = static_cast<std::size_t>(by_human.rend() - last_human) - 1;
      moves.resize(keep);
      by_human.resize(keep);
      state = rebuild();
      show_board = true;
    } else {
      try {
        Move m = state->parse_move(line);
        state->apply(m);
        moves.push_back(m);
        by_human.push_back(true);
        show_board = true;
      } catch (const RuleError& e) {
        std::cout << "Illegal: " << e.what() << "\n";
      }
    }
  }
  std::cout << "\n" << state->to_text(names) << state->result_text() << "\n";
  save();
}

}  // namespace

void add_play_command(CLI::App& app) {
  auto opt = std::make_shared<PlayOptions>();
  auto* cmd = app.add_subcommand("play", "Play a game in the terminal (people and bots)");
  cmd->add_option("GAME", opt->game, "Game spec, e.g. bohnduell")->required();
  cmd->add_option("--seats", opt->seats, "Who plays each seat, in seat order: human or a bot (random, greedy, 1..5)")
      ->capture_default_str();
  cmd->add_option("--names", opt->names, "Player names by seat, comma-separated");
  cmd->add_option("--record", opt->record, "Continue from this record ('-' = standard input)");
  cmd->add_option("--save", opt->save, "Where to save the record (default GAME-DATE-TIME.record)");
  cmd->add_option("--seed", opt->seed, "Seed for the bots")->capture_default_str();
  cmd->add_option("--movetime", opt->movetime, "Cap per bot move in milliseconds (0 = none)")
      ->check(whole_number_in(0, 86400000));
  cmd->footer("Example: plateau play bohnduell --seats human,random --save mygame.record");
  cmd->callback([opt] { run_play(*opt); });
}

}  // namespace plateau::cli
