#pragma once
// The window of `biloba` (issue 18): the menu, the board, the help pages, network games with
// chat, SAVE LAST GAME, in English or French; SDL2 and SDL2_ttf.
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "gui/gui_menu.h"
#include "gui/gui_strings.h"

namespace plateau::gui {

struct WindowOptions {
  Lang lang = Lang::kEn;
  std::string server;          // the command's SERVER argument ("" = none yet)
  unsigned short port = 8000;
  int players = 2;             // the menu's first choice, and --start create/join
  std::string name;            // our name in network games ("" = the menu's first seat name)
  std::optional<StartSpec> start;
  std::string replay_file;     // a .blb to replay instead of the menu
  std::string trace_file;      // test trace (one line per event; see gui_app.cpp)
  int width = 800, height = 600;
  std::uint64_t seed = 1;
  std::chrono::milliseconds cpu_delay{600};
  std::chrono::milliseconds replay_delay{500};
};

// SDL could not open a window, or the font is missing: the caller plays in the terminal.
class WindowUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs the window until it is closed (Ctrl-Q or the window's close button). Returns the exit
// status (0). Throws WindowUnavailable before any window is shown when it cannot be.
int run_window(const WindowOptions& options);

}  // namespace plateau::gui
