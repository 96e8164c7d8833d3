#pragma once
// The window's screens drawn on a Canvas: the menu, the list of a server's open games, the
// board with its side panel, a help page. Each draws the whole window from plain data; the
// event loop (gui_app.cpp) decides which and when. Colours are fixed so that the Xvfb tests
// can read the board back (tests/gui/guilib.py: the same values).
#include <string>
#include <vector>

#include "compat/biloba/legacy_client.h"
#include "gui/gui_draw.h"
#include "gui/gui_driver.h"
#include "gui/gui_menu.h"
#include "gui/gui_turns.h"

namespace plateau::gui {

// Pawn colours by seat, the empty square, the centre and the unplayable border squares.
inline constexpr Colour kPawnColours[4] = {
    {245, 130, 20}, {40, 90, 220}, {215, 35, 35}, {40, 165, 70}};
inline constexpr Colour kSquareColour{222, 196, 150};
inline constexpr Colour kCentreColour{160, 110, 60};
inline constexpr Colour kBorderColour{90, 72, 56};
inline constexpr Colour kBackground{18, 22, 30};

void draw_corner_icons(Canvas& c, const CornerIcons& icons, Lang lang);

void draw_menu(Canvas& c, const MenuLayout& l, const MenuState& menu, Lang lang, bool editing_server,
               const std::string& status);

void draw_game_list(Canvas& c, const GameListLayout& l, const std::string& server,
                    const std::vector<biloba::net::ListedGame>& games, const std::string& status,
                    Lang lang);

// Everything the game screen shows besides the driver's view.
struct GameScreen {
  const DriverView* view = nullptr;
  ClickHints hints;                   // of the machine now, when a person of this window is asked
  std::vector<std::string> events;    // turn sentences, newest last
  std::string chat_input;             // the chat line being typed (network games)
  bool network = false;
  std::string status;                 // e.g. "Saved /home/me/Biloba-....blb"
  std::string title;                  // the title bar ("Biloba", or the replay's file)
};
void draw_game(Canvas& c, const BoardLayout& l, const GameScreen& s, Lang lang);

// Help page 1..6 over the whole window.
void draw_help(Canvas& c, int width, int height, int page, Lang lang);

}  // namespace plateau::gui
