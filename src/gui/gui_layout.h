#pragma once
// Where everything is in the window, in pixels, for any window size (the window scales: issue
// 18). Pure geometry with no SDL, so hit-testing is unit-tested and the Xvfb tests can compute
// the square centres the same way (tests/gui/guilib.py mirrors BoardLayout::for_window).
#include <array>
#include <vector>

namespace plateau::gui {

struct Rect {
  int x = 0, y = 0, w = 0, h = 0;
  bool contains(int px, int py) const { return px >= x && px < x + w && py >= y && py < y + h; }
  int cx() const { return x + w / 2; }
  int cy() const { return y + h / 2; }
  friend bool operator==(const Rect&, const Rect&) = default;
};

struct Point {
  int x = 0, y = 0;
  friend bool operator==(const Point&, const Point&) = default;
};

// The icons of the top right corner, on every screen: "?" (help) and the language switch.
struct CornerIcons {
  Rect help;
  Rect lang;
};
CornerIcons corner_icons(int width, int height);

// The game screen: the 9x9 grid on the left, a side panel on the right.
//   top = height / 12 (the title bar with the icons), margin = height / 40;
//   board side S = min(height - top - 2 margin, 2/3 width - 2 margin), rounded down to a
//   multiple of 9; the grid at (margin, top + margin); cell = S / 9.
struct BoardLayout {
  int width = 0, height = 0;
  Rect board;    // the 9x9 grid
  int cell = 0;  // side of one cell in pixels
  Rect panel;    // turn, pawn counts, messages, chat
  Rect menu_button;
  Rect save_button;
  Rect chat_box;  // the chat line being typed (network games)
  CornerIcons icons;

  static BoardLayout for_window(int width, int height);
  // The centre of `square` (0..80, 9 * y + x, y = 0 the top row = rank 9).
  Point centre(int square) const;
  // The grid cell under (px, py), or -1 outside the 9x9 grid.
  int square_at(int px, int py) const;
  int pawn_radius() const { return cell * 38 / 100; }
};

// The menu screen (the original's: number of players, a row per seat, the three buttons), plus
// the server line and the servers heard on the LAN.
struct MenuLayout {
  int width = 0, height = 0;
  Rect title;
  Rect players;                  // "2 PLAYERS": a click cycles 2 -> 3 -> 4 -> 2
  std::array<Rect, 4> seat_row;  // colour and name
  std::array<Rect, 4> seat_kind; // HUMAN / CPU ...: a click cycles the kind
  Rect server;                   // the server line: a click edits it
  Rect lan_title;
  std::array<Rect, 4> lan_rows;  // the first four servers heard
  Rect create, join, play;
  Rect save_last;  // SAVE LAST GAME: the game played last, as a .blb
  CornerIcons icons;

  static MenuLayout for_window(int width, int height);
};

// The list of open games of a server (after JOIN GAME): up to 6 rows (the protocol's limit)
// and a Back button.
struct GameListLayout {
  Rect title;
  std::array<Rect, 6> rows;
  Rect back;
  CornerIcons icons;
  static GameListLayout for_window(int width, int height);
};

}  // namespace plateau::gui
