#pragma once
// Click-level Biloba games as the original plays them (specs/biloba.md §5, §11.4, §13): a
// local game where every seat's clicks come from a SeatInput, a network game where the
// remote seats' clicks come from the server, and the replay of a `.blb` file. Each runs the
// click machine of biloba_clicks.h on the click stream and records every click (the client's
// "SAVE LAST GAME" data).
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "games/biloba/biloba_clicks.h"
#include "compat/biloba/blb.h"
#include "compat/biloba/click_player.h"
#include "compat/biloba/legacy_client.h"

namespace plateau::biloba::net {

// Where a local seat's clicks come from (a person at the terminal, a bot, a script).
class SeatInput {
 public:
  virtual ~SeatInput() = default;
  // The next square (0..80) to click for machine.asked(), or -1 to end the game (quit).
  virtual int next_click(const ClickMachine& machine) = 0;
};

// A Plateau bot (ClickPlayer) as a SeatInput.
class BotInput : public SeatInput {
 public:
  BotInput(std::string_view bot, std::uint64_t seed, const Position& start,
           std::chrono::milliseconds delay = {})
      : player_(bot, seed, start), delay_(delay) {}
  int next_click(const ClickMachine& machine) override;

 private:
  ClickPlayer player_;
  std::chrono::milliseconds delay_;
};

// A fixed list of squares (scripted tests); -1 once it runs out.
class ScriptInput : public SeatInput {
 public:
  explicit ScriptInput(std::vector<int> squares) : squares_(std::move(squares)) {}
  int next_click(const ClickMachine&) override {
    return next_ < squares_.size() ? squares_[next_++] : -1;
  }

 private:
  std::vector<int> squares_;
  std::size_t next_ = 0;
};

// Observers for user interfaces (all optional).
struct GameHooks {
  // After every click fed to the machine (seat, square, what it did).
  std::function<void(const ClickMachine&, int seat, int square, ClickEffect)> on_click;
  // Before a seat's turn starts asking for clicks ("Up to <name>").
  std::function<void(const ClickMachine&, int seat)> on_turn;
  // A chat line (network games).
  std::function<void(int seat, const std::string& text)> on_chat;
};

struct GameOutcome {
  Position final_board;          // the board at the end (emptied when a player left)
  bool finished = false;         // the rules ended the game
  int left_seat = -1;            // a seat that quit / a peer that left / the replay ran out
  std::string message;           // "<name> wins !", "Draw", "<name> leaves" or ""
  BlbGame clicks;                // every click of every seat (names from the game)
  std::vector<ClickTurn> turns;  // completed turns
};

// The original's result message (§6.3) for an ended game with these seat names ("" = default
// "Player N").
std::string result_message(const Position& final_board, const std::vector<std::string>& names);

// A local game: `inputs[s]` plays seat s. Ends when the rules end it or an input returns -1.
GameOutcome play_local_game(const Position& start, const std::vector<std::string>& names,
                            const std::vector<SeatInput*>& inputs, bool pass_when_stuck,
                            const GameHooks& hooks = {});

// A network game after READY: seats in `local` are played here and sent with 'p'; the others
// are read with 'r'. (−2, −2) or any coordinate outside 0..8 ends the game as "<name> leaves".
// A local input returning -1 quits ('q' for every local seat).
GameOutcome play_network_game(LegacyClient& client, const std::vector<std::string>& names,
                              const std::map<int, SeatInput*>& local, const GameHooks& hooks = {});

// Replays a .blb file (§13): (−1, −1) is skipped; a record for another seat than the one
// asked, a (−2, −2), or the end of the file acts as "<name> leaves". `delay` is waited before
// each click (the original: 500 ms).
GameOutcome replay_game(const BlbGame& game, std::chrono::milliseconds delay,
                        const GameHooks& hooks = {});

}  // namespace plateau::biloba::net
