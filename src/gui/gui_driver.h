#pragma once
// The game behind the window: a local game, a biloba 0.9.3 network game or a .blb replay, run
// by the same code as the terminal game (compat/biloba/click_game.h: play_local_game,
// play_network_game, replay_game; the bots through BotInput) on a thread of its own, so the
// window keeps drawing while a bot thinks or a peer is awaited. The window reads a copy of the
// state (view()) and feeds the person's clicks (click()).
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compat/biloba/blb.h"
#include "games/biloba/biloba_clicks.h"
#include "gui/gui_menu.h"

namespace plateau::gui {

enum class DriverPhase {
  kConnecting,  // network: connecting, creating or joining
  kWaiting,     // network: waiting for players (DriverView::missing)
  kPlaying,
  kOver,        // the game ended, or a player left (DriverView::message)
  kFailed,      // network: the connection failed (DriverView::message)
};

struct DriverView {
  std::uint64_t version = 0;  // grows with every change
  DriverPhase phase = DriverPhase::kConnecting;
  std::optional<biloba::ClickMachine> machine;  // from kPlaying on
  biloba::Position start;
  std::vector<std::string> names;
  std::vector<bool> human;  // per seat: a person at this window plays it
  int missing = 0;          // kWaiting
  int game_id = 0;          // network games
  std::string message;      // kOver: the result ("" when the board emptied); kFailed: the error
  bool someone_left = false;
  std::vector<std::string> chat;      // "name: text", oldest first (network games)
  biloba::net::BlbGame clicks;        // every click so far (SAVE LAST GAME)
};

struct LocalSetup {
  int players = 2;
  std::vector<SeatKind> seats;     // one per seat
  std::vector<std::string> names;  // one per seat
  std::uint64_t seed = 1;
  std::chrono::milliseconds cpu_delay{600};
  Lang lang = Lang::kEn;
};

struct NetworkSetup {
  std::string host;
  unsigned short port = 8000;
  int players = 2;
  bool create = true;     // create a game (seat 1 here, the others on the network) or join
  std::string game_name;  // create
  int join_id = 0;        // join
  std::string my_name;
  SeatKind my_kind;       // a person, or a bot playing our seat
  std::uint64_t seed = 1;
  std::chrono::milliseconds cpu_delay{600};
  Lang lang = Lang::kEn;
};

// Text from the wire for the screen: the original client sends its machine's 8-bit text
// (Latin-1 on the Debian systems of its time), Plateau clients UTF-8; well-formed UTF-8 is kept,
// anything else is read as Latin-1.
std::string wire_text(std::string_view text);

class GameDriver {
 public:
  static std::unique_ptr<GameDriver> local(const LocalSetup& setup);
  static std::unique_ptr<GameDriver> network(const NetworkSetup& setup);
  static std::unique_ptr<GameDriver> replay(const biloba::net::BlbGame& game,
                                            std::chrono::milliseconds delay, Lang lang);
  // Stops the game (a local person's pending click ends it; a network game is left) without
  // waiting for a bot still thinking: the thread finishes on its own.
  ~GameDriver();

  DriverView view() const;
  std::uint64_t version() const;
  // The person clicked `square` (0..80). Returns false when no seat of this window is asked.
  bool click(int square);
  // Sends a chat line (network games; up to the protocol's 255 bytes).
  void say(const std::string& text);

  struct Shared;

 private:
  explicit GameDriver(std::shared_ptr<Shared> shared) : shared_(std::move(shared)) {}
  std::shared_ptr<Shared> shared_;
};

}  // namespace plateau::gui
