#pragma once
// The menu's state (the original's: 2, 3 or 4 players, each seat Human or CPU) and what a
// click on it does; the hidden `--start SPEC` option that skips it (tests). No SDL here.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gui/gui_layout.h"
#include "gui/gui_strings.h"

namespace plateau::gui {

// A seat's player: a person at this window, or a Plateau bot (the name make_bot takes:
// "classic" is the replica of biloba 0.9.3's computer player, "1".."5" the levels).
struct SeatKind {
  bool human = true;
  std::string bot;  // when !human
  friend bool operator==(const SeatKind&, const SeatKind&) = default;
};

// The cycle a click on a seat's kind walks: Human, CPU classic, CPU level 1..5, Human.
SeatKind next_kind(const SeatKind& kind);
// "HUMAN", "CPU classic", "CPU level 3" (random/greedy show their bot name).
std::string kind_label(const SeatKind& kind, Lang lang);

struct MenuState {
  int players = 2;
  std::vector<SeatKind> seats = std::vector<SeatKind>(4);  // 4 entries; the first `players` used
  std::vector<std::string> names;                          // 4 entries, "Player N" by default
  std::string server;                                      // host for network games, "" = none
  std::vector<std::string> lan_servers;                    // host names heard on UDP 8001
  int editing_name = -1;  // the seat whose name is being typed (kEditName), else -1

  explicit MenuState(Lang lang = Lang::kEn);
};

// What a click on the menu asks for.
enum class MenuAction {
  kNone, kChanged, kEditServer, kEditName, kCreate, kJoin, kPlay, kSaveLast, kHelp, kLang };

// Names are at most this many bytes (the original's 31 characters; whole UTF-8 characters).
inline constexpr std::size_t kMaxNameBytes = 31;

// Applies a click at (px, py) on the menu laid out by `layout`: cycles players or a seat's
// kind (kChanged), picks a LAN server (kChanged), starts typing a seat's name (kEditName, with
// editing_name set), or names a button. Clicks elsewhere: kNone. Any click ends a name's typing.
MenuAction menu_click(MenuState& menu, const MenuLayout& layout, int px, int py);

// `--start SPEC`, the hidden test option that skips the menu:
//   local:K1,K2[,K3[,K4]]  a local game, each K human, classic, cpu (= classic), random,
//                          greedy or 1..5
//   create:NAME            a network game of SERVER (the command's argument) named NAME, seat 1
//                          of `players` (the --players option), the others on the network
//   join:ID                join game ID of SERVER for `players` players
//   help                   the first help page
struct StartSpec {
  enum class Kind { kLocal, kCreate, kJoin, kHelp } kind = Kind::kLocal;
  std::vector<SeatKind> seats;  // kLocal
  std::string name;             // kCreate
  int id = 0;                   // kJoin
};
// Throws std::invalid_argument with a message naming the problem.
StartSpec parse_start_spec(std::string_view spec);
// One seat word as above; nullopt when unknown.
std::optional<SeatKind> parse_seat_kind(std::string_view word);

}  // namespace plateau::gui
