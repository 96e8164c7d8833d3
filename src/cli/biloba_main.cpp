// `biloba [server | file.blb]`: biloba 0.9.3's command (docs/man/biloba.6). A window (src/gui)
// unless --text, a scripted option or no display; otherwise in the terminal:
//   biloba                      a local game, 2-4 seats, each human or CPU
//   biloba SERVER               a network game through a server on port 8000: list, create,
//                               join, chat, play
//   biloba FILE.blb             replay a saved game
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "ai/bot.h"
#include "cli/biloba_tui.h"
#include "core/error.h"
#include "core/text.h"
#include "games/biloba/biloba_board.h"
#include "games/biloba/biloba_notation.h"
#include "games/register.h"
#include "compat/biloba/blb.h"
#include "compat/biloba/click_game.h"
#include "compat/biloba/discovery.h"
#include "compat/biloba/legacy_client.h"
#include "gui/gui_app.h"

namespace {

using namespace plateau;
using namespace plateau::biloba;
using namespace plateau::biloba::net;
namespace tui = plateau::cli::biloba_tui;

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  std::string target;
  int players = 2;
  std::string seats;  // "human,cpu,..." for local games
  std::string names;
  std::string level;  // bot for CPU seats
  int cpu_delay_ms = 1000;
  unsigned short port = 8000;
  std::string create;
  int join = 0;
  bool list = false;
  std::string name;
  bool cpu = false;  // the local seat of a network game is played by a bot (Plateau option)
  std::string clicks;
  std::string save;
  int replay_delay_ms = 500;
  bool discover = false;
  std::uint64_t seed = 0;
  bool quiet = false;
  bool text = false;      // --text: the terminal game even with a display
  std::string lang;       // --lang en|fr (default: $LANG)
  std::string trace;      // hidden test options of the window
  std::string geometry;
  std::string start;
};

std::string default_level() { return "classic"; }

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) out.emplace_back(trim(item));
  return out;
}

std::vector<std::string> seat_names(const Options& o, int players) {
  std::vector<std::string> names = split_list(o.names);
  names.resize(players);
  for (int s = 0; s < players; ++s) {
    if (names[s].empty()) names[s] = "Player " + std::to_string(s + 1);
    names[s] = clip(names[s]);
  }
  return names;
}

std::uint64_t seed_of(const Options& o) {
  return o.seed ? o.seed : static_cast<std::uint64_t>(std::time(nullptr));
}

// After a game: the original's SAVE LAST GAME (≥ 3 recorded clicks).
void save_game(const Options& o, const GameOutcome& out, bool interactive) {
  if (out.clicks.records.size() < 3) return;
  std::string path = o.save;
  if (path.empty() && interactive) {
    std::cout << "Save last game? [y/N] " << std::flush;
    std::string answer;
    if (!std::getline(std::cin, answer) || to_lower(trim(answer)) != "y") return;
    path = "auto";
  }
  if (path.empty()) return;
  if (path == "auto") path = save_last_game_path(std::time(nullptr));
  write_blb_file(path, out.clicks);
  std::cout << "Saved " << path << "\n";
}

void print_end(const GameOutcome& out) {
  if (!out.message.empty()) std::cout << out.message << "\n";
  std::cout << "Position: " << format_position(out.final_board) << "\n";
}

std::unique_ptr<SeatInput> script_input(const Options& o) {
  if (o.clicks.empty()) return nullptr;
  std::ifstream in(o.clicks);
  if (!in) throw UsageError("cannot read clicks file " + o.clicks);
  std::stringstream buf;
  buf << in.rdbuf();
  return std::make_unique<ScriptInput>(tui::parse_squares(buf.str()));
}

int run_local(const Options& o) {
  if (o.players < 2 || o.players > 4) throw UsageError("--players must be 2, 3 or 4");
  std::vector<std::string> kinds = split_list(o.seats.empty() ? "human,cpu" : o.seats);
  kinds.resize(o.players, "cpu");
  const std::vector<std::string> names = seat_names(o, o.players);
  const Position start = start_position(o.players);
  const std::string level = o.level.empty() ? default_level() : o.level;
  std::vector<std::unique_ptr<SeatInput>> owned;
  std::vector<SeatInput*> inputs;
  bool any_human = false;
  const std::uint64_t seed = seed_of(o);
  for (int s = 0; s < o.players; ++s) {
    const std::string kind = to_lower(kinds[s]);
    if (kind == "human") {
      owned.push_back(std::make_unique<tui::HumanInput>(std::cin, std::cout, names, start));
      any_human = true;
    } else if (kind == "cpu" || kind == "computer") {
      owned.push_back(std::make_unique<BotInput>(level, seed + s, start,
                                                 std::chrono::milliseconds(o.cpu_delay_ms)));
    } else {
      throw UsageError("seat type '" + kinds[s] + "' (human or cpu)");
    }
    inputs.push_back(owned.back().get());
  }
  if (any_human && !o.quiet) std::cout << tui::help_page(1) << "(type help for more)\n";
  tui::TurnPrinter printer(std::cout, names, !any_human && !o.quiet, start);
  GameHooks hooks;
  hooks.on_click = [&](const ClickMachine& m, int, int, ClickEffect) { printer.update(m); };
  // Local games pass a stuck player (Plateau's deviation, spec §3.4).
  const GameOutcome out = play_local_game(start, names, inputs, /*pass_when_stuck=*/true, hooks);
  print_end(out);
  save_game(o, out, any_human);
  return 0;
}

int run_replay(const Options& o) {
  const BlbGame game = read_blb_file(o.target);
  std::cout << "Replay of " << o.target << ": " << game.names.size() << " players ("
            << join(game.names, ", ") << "), " << game.records.size() << " clicks\n";
  tui::TurnPrinter printer(std::cout, game.names, !o.quiet,
                           start_position(static_cast<int>(game.names.size())));
  GameHooks hooks;
  hooks.on_click = [&](const ClickMachine& m, int, int, ClickEffect) { printer.update(m); };
  const GameOutcome out = replay_game(game, std::chrono::milliseconds(o.replay_delay_ms), hooks);
  print_end(out);
  return 0;
}

int run_discover() {
  std::cout << "Listening for Biloba servers on UDP " << kDiscoveryPort << "...\n";
  const auto found = scan_servers(std::chrono::milliseconds(2200));
  if (found.empty()) std::cout << "No server found.\n";
  for (const auto& s : found) std::cout << s.host << " (" << s.address << ")\n";
  return 0;
}

void print_games(const std::vector<ListedGame>& games, int players) {
  if (games.empty()) std::cout << "No open game for " << players << " players.\n";
  for (const auto& g : games) std::cout << "  " << g.id << "  " << g.name << "\n";
}

int run_network(Options o) {
  const std::string host = o.target == "Local" ? "127.0.0.1" : o.target;
  if (o.players < 2 || o.players > 4) throw UsageError("--players must be 2, 3 or 4");
  const std::string my_name = clip(o.name.empty() ? "Player 1" : o.name);
  const bool interactive = o.create.empty() && o.join == 0 && !o.list;
  if (o.list) {
    print_games(list_games(host, o.port, o.players), o.players);
    return 0;
  }
  if (interactive) {
    std::cout << "Server " << host << ":" << o.port << ". Commands: list, create NAME, join ID, "
              << "players N, quit\n";
    while (o.create.empty() && o.join == 0) {
      std::cout << "biloba> " << std::flush;
      std::string line;
      if (!std::getline(std::cin, line)) return 0;
      std::istringstream words(line);
      std::string cmd;
      words >> cmd;
      cmd = to_lower(cmd);
      try {
        if (cmd == "list" || cmd == "l") {
          print_games(list_games(host, o.port, o.players), o.players);
        } else if (cmd == "create" || cmd == "c") {
          std::string rest;
          std::getline(words, rest);
          o.create = std::string(trim(rest));
          if (o.create.empty()) o.create = "New game";
        } else if (cmd == "join" || cmd == "j") {
          words >> o.join;
        } else if (cmd == "players" || cmd == "p") {
          words >> o.players;
          if (o.players < 2 || o.players > 4) o.players = 2;
        } else if (cmd == "quit" || cmd == "q") {
          return 0;
        } else {
          std::cout << "Commands: list, create NAME, join ID, players N, quit\n";
        }
      } catch (const std::exception& e) {
        std::cout << "Connection failed: " << e.what() << "\n";
      }
    }
  }
  LegacyClient client = [&]() {
    if (!o.create.empty()) {
      // As the original: seat 0 is ours, every other seat is NETWORK.
      std::vector<SeatDetail> seats{{SeatType::kLocal, my_name}};
      for (int s = 1; s < o.players; ++s) {
        seats.push_back({SeatType::kNetwork, "Player " + std::to_string(s + 1)});
      }
      auto c = LegacyClient::create(host, o.port, o.create, seats);
      std::cout << "Created game " << c.game_id() << " \"" << o.create << "\"\n";
      return c;
    }
    auto c = LegacyClient::join(host, o.port, o.players, o.join, my_name);
    std::cout << "Joined game " << o.join << " as player " << c.seat() + 1 << "\n";
    return c;
  }();
  int last_missing = -1;
  const ReadyStatus ready = client.wait_ready(
      std::chrono::milliseconds(1000), std::chrono::hours(24), [&](const ReadyStatus& r) {
        if (last_missing >= 0 && r.missing < last_missing) std::cout << r.last_name << " joined\n";
        if (r.missing > 0 && r.missing != last_missing) {
          std::cout << "Waiting for " << r.missing << " player(s)\n";
        }
        last_missing = r.missing;
      });
  std::cout << "Players: " << join(ready.names, ", ") << "\n";
  try {
    client.open_chat();
  } catch (const std::exception& e) {
    std::cout << "(no chat: " << e.what() << ")\n";
  }
  const Position start = start_position(o.players);
  std::unique_ptr<SeatInput> input = script_input(o);
  const bool human = !input && !o.cpu;
  if (o.cpu) {
    input = std::make_unique<BotInput>(o.level.empty() ? default_level() : o.level,
                                       seed_of(o) + client.seat(), start,
                                       std::chrono::milliseconds(o.cpu_delay_ms));
  }
  if (human) {
    input = std::make_unique<tui::HumanInput>(std::cin, std::cout, ready.names, start,
                                              [&](const std::string& text) { client.say(text); });
    if (!o.quiet) std::cout << tui::help_page(1) << "(type help for more; t TEXT talks)\n";
  }
  tui::TurnPrinter printer(std::cout, ready.names, !human && !o.quiet, start);
  GameHooks hooks;
  hooks.on_click = [&](const ClickMachine& m, int, int, ClickEffect) { printer.update(m); };
  hooks.on_chat = [&](int seat, const std::string& text) {
    const std::string who = seat >= 0 && seat < static_cast<int>(ready.names.size())
                                ? ready.names[seat]
                                : "?";
    std::cout << who << ": " << text << "\n";
  };
  GameOutcome out;
  try {
    out = play_network_game(client, ready.names, {{client.seat(), input.get()}}, hooks);
  } catch (const std::exception& e) {
    // The server closes a game whose player dropped without a word: say what happened.
    throw std::runtime_error(std::string("connection lost (") + e.what() + ")");
  }
  print_end(out);
  save_game(o, out, human);
  return 0;
}

// True when the options ask for the terminal: --text, or one of the scripted modes.
bool wants_terminal(const Options& o, const CLI::App& app) {
  if (o.text || o.discover || o.list || o.cpu || o.quiet || !o.create.empty() || o.join != 0 ||
      !o.clicks.empty() || !o.save.empty()) {
    return true;
  }
  return app.count("--seats") > 0 || app.count("--names") > 0;
}

gui::WindowOptions window_options(const Options& o, bool replay) {
  gui::WindowOptions w;
  if (!o.lang.empty()) {
    const auto lang = gui::parse_lang(o.lang);
    if (!lang) throw UsageError("--lang must be en or fr");
    w.lang = *lang;
  } else {
    w.lang = gui::lang_from_locale(std::getenv("LANG"));
  }
  if (!o.geometry.empty()) {
    int width = 0, height = 0;
    char x = 0, extra = 0;
    std::istringstream in(o.geometry);
    if (!(in >> width >> x >> height) || x != 'x' || (in >> extra) || width < 320 ||
        height < 240 || width > 8192 || height > 8192) {
      throw UsageError("--geometry must be WIDTHxHEIGHT, 320x240 to 8192x8192");
    }
    w.width = width;
    w.height = height;
  }
  if (!o.start.empty()) {
    try {
      w.start = gui::parse_start_spec(o.start);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  if (o.players < 2 || o.players > 4) throw UsageError("--players must be 2, 3 or 4");
  w.players = o.players;
  if (replay) {
    read_blb_file(o.target);  // a bad file is refused before any window opens
    w.replay_file = o.target;
  } else if (!o.target.empty()) {
    w.server = o.target == "Local" ? "127.0.0.1" : o.target;
  }
  if (w.start && (w.start->kind == gui::StartSpec::Kind::kCreate ||
                  w.start->kind == gui::StartSpec::Kind::kJoin) &&
      w.server.empty()) {
    throw UsageError("--start " + o.start + " needs a SERVER argument");
  }
  w.port = o.port;
  w.name = o.name;
  w.trace_file = o.trace;
  w.seed = seed_of(o);
  w.cpu_delay = std::chrono::milliseconds(o.cpu_delay_ms);
  w.replay_delay = std::chrono::milliseconds(o.replay_delay_ms);
  return w;
}

bool has_display() {
  const char* x = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x != nullptr && *x != '\0') || (wayland != nullptr && *wayland != '\0');
}

int run_terminal(const Options& o, bool replay) {
  if (o.discover) return run_discover();
  if (o.target.empty()) return run_local(o);
  if (replay) return run_replay(o);
  return run_network(o);
}

}  // namespace

int main(int argc, char** argv) {
  register_builtin_games();
  Options o;
  CLI::App app{"Biloba: the biloba 0.9.3 game in a window, or in the terminal with --text (local, "
               "network or replay)",
               "biloba"};
  app.add_option("target", o.target,
                 "A server name (network game on port 8000), \"Local\", or a .blb replay file");
  app.add_option("-n,--players", o.players, "Number of players, 2..4")->capture_default_str();
  app.add_option("--seats", o.seats, "Local game: seat types, e.g. human,cpu,cpu (default "
                                     "human,cpu)");
  app.add_option("--names", o.names, "Local game: seat names, comma-separated");
  app.add_option("--level", o.level, "Bot for CPU seats: classic (the original's AI, default), random, greedy, 1..5");
  app.add_option("--cpu-delay", o.cpu_delay_ms, "Milliseconds before each CPU click")
      ->capture_default_str();
  app.add_option("--port", o.port, "Server port")->capture_default_str();
  app.add_option("--create", o.create, "Network: create a game with this name");
  app.add_option("--join", o.join, "Network: join the game with this id");
  app.add_flag("--list", o.list, "Network: list the open games and exit");
  app.add_option("--name", o.name, "Network: your name (default \"Player 1\")");
  app.add_flag("--cpu", o.cpu, "Network: a Plateau bot plays your seat");
  app.add_option("--clicks", o.clicks, "Network: play your seat from a file of squares");
  app.add_option("--save", o.save, "After the game: save it as this .blb file (\"auto\": "
                                   "~/Desktop/Biloba-DATE.blb as the original)");
  app.add_option("--replay-delay", o.replay_delay_ms, "Replay: milliseconds per click")
      ->capture_default_str();
  app.add_flag("--discover", o.discover, "List the Biloba servers announced on the LAN");
  app.add_option("--seed", o.seed, "Random seed for CPU seats (default: the clock)");
  app.add_flag("-q,--quiet", o.quiet, "Print only the turns and the result");
  app.add_flag("--text", o.text, "Play in the terminal even when a display is available");
  app.add_option("--lang", o.lang, "Language of the window: en or fr (default: from $LANG)");
  // Hidden options of the Xvfb tests (tests/gui): a trace of what the window showed, its size,
  // and a game started without the menu (gui_menu.h StartSpec).
  app.add_option("--trace", o.trace)->group("");
  app.add_option("--geometry", o.geometry)->group("");
  app.add_option("--start", o.start)->group("");
  try {
    app.parse(argc, argv);
    const bool replay =
        !o.target.empty() &&
        ((o.target.size() > 4 && o.target.substr(o.target.size() - 4) == ".blb") ||
         std::filesystem::is_regular_file(o.target));
    if (!wants_terminal(o, app)) {
      const gui::WindowOptions w = window_options(o, replay);
      if (!has_display()) {
        std::cerr << "biloba: no display (DISPLAY and WAYLAND_DISPLAY are unset): playing in "
                     "the terminal\n";
      } else {
        try {
          const int status = gui::run_window(w);
          // A game's thread may still run (a bot thinking, a read from a peer): it must not
          // meet the static destructors of a normal exit.
          std::cout.flush();
          std::_Exit(status);
        } catch (const gui::WindowUnavailable& e) {
          std::cerr << "biloba: cannot open a window (" << e.what()
                    << "): playing in the terminal\n";
        }
      }
    }
    return run_terminal(o, replay);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "biloba: " << e.what() << "\n";
    return 2;
  }
}
