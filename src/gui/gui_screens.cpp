#include "gui/gui_screens.h"

#include <algorithm>

#include "games/biloba/biloba_board.h"
#include "games/biloba/biloba_print.h"
#include "gui/gui_help.h"

namespace plateau::gui {

using namespace plateau::biloba;

namespace {

constexpr Colour kText{235, 235, 235};
constexpr Colour kDim{150, 155, 165};
constexpr Colour kAccent{230, 60, 40};
constexpr Colour kSelect{255, 230, 40};
constexpr Colour kTarget{40, 200, 90};
constexpr Colour kHint{255, 255, 255};
constexpr Colour kLast{120, 60, 20};

Colour darker(Colour c) {
  return {static_cast<std::uint8_t>(c.r * 6 / 10), static_cast<std::uint8_t>(c.g * 6 / 10),
          static_cast<std::uint8_t>(c.b * 6 / 10), 255};
}
Colour lighter(Colour c) {
  return {static_cast<std::uint8_t>(c.r + (255 - c.r) / 2),
          static_cast<std::uint8_t>(c.g + (255 - c.g) / 2),
          static_cast<std::uint8_t>(c.b + (255 - c.b) / 2), 255};
}

// The font size, at most `size`, at which `label` fits in `width` pixels (French is longer).
int fit(Canvas& c, const std::string& label, int size, int width, bool bold) {
  while (size > 8 && c.text_width(label, size, bold) > width) --size;
  return size;
}

void button(Canvas& c, const Rect& r, const std::string& label, int size) {
  c.frame(r, kAccent, 2);
  size = fit(c, label, size, r.w - 8, true);
  c.text(label, r.cx(), r.cy() - size * 6 / 10, size, kText, Align::kCentre, true);
}

// A pawn: its colour fills the centre pixel exactly (the tests read it); a highlight up left.
void pawn(Canvas& c, int cx, int cy, int r, int colour) {
  const Colour base = kPawnColours[colour];
  c.disc(cx, cy, r, darker(base));
  c.disc(cx, cy, r * 88 / 100, base);
  c.disc(cx - r / 3, cy - r / 3, std::max(1, r / 5), lighter(base));
}

void centre_star(Canvas& c, int cx, int cy, int cell) {
  c.fill({cx - cell / 2 + 1, cy - cell / 2 + 1, cell - 2, cell - 2}, kCentreColour);
  const int r = cell * 35 / 100;
  for (int d = 0; d < 8; ++d) {
    const int dx = kDx[d], dy = kDy[d];
    c.line(cx + dx * r / 3, cy + dy * r / 3, cx + dx * r, cy + dy * r, lighter(kCentreColour));
  }
}

void draw_cell(Canvas& c, int cx, int cy, int cell, int square) {
  switch (cell_type(square)) {
    case CellType::kNoTile:
      return;
    case CellType::kDecorative:
      c.fill({cx - cell / 2 + 1, cy - cell / 2 + 1, cell - 2, cell - 2}, kBorderColour);
      return;
    case CellType::kCentre:
      centre_star(c, cx, cy, cell);
      return;
    case CellType::kNormal:
      c.fill({cx - cell / 2 + 1, cy - cell / 2 + 1, cell - 2, cell - 2}, kSquareColour);
      return;
  }
}

void draw_board(Canvas& c, const BoardLayout& l, const Position& pos, const ClickHints& h,
                const std::vector<int>& last) {
  const int r = l.pawn_radius();
  for (int sq = 0; sq < kSquares; ++sq) {
    const Point p = l.centre(sq);
    draw_cell(c, p.x, p.y, l.cell, sq);
    if (pos.cell[sq] < kMaxColours) pawn(c, p.x, p.y, r, pos.cell[sq]);
  }
  for (int sq : last) {  // the squares of the last turn, framed along the cell's edge
    const Point p = l.centre(sq);
    c.frame({p.x - l.cell / 2 + 1, p.y - l.cell / 2 + 1, l.cell - 2, l.cell - 2}, kLast, 2);
  }
  const int label = std::max(8, l.cell / 4);
  for (int i = 0; i < 9; ++i) {  // file letters below, rank numbers on the left
    const Point p = l.centre(72 + i);
    c.text(std::string(1, static_cast<char>('a' + i)), p.x, l.board.y + l.board.h - label - 2,
           label, kDim, Align::kCentre);
    const Point q = l.centre(9 * i);
    c.text(std::to_string(9 - i), l.board.x + 2, q.y - label / 2, label, kDim);
  }
  // Markers are rings: a square's centre pixel keeps its colour.
  for (int sq : h.selectable) {
    const Point p = l.centre(sq);
    c.ring(p.x, p.y, r + 3, 2, kHint);
  }
  for (int sq : h.targets) {
    const Point p = l.centre(sq);
    c.ring(p.x, p.y, r * 6 / 10, std::max(2, r / 6), kTarget);
  }
  if (h.selected >= 0) {
    const Point p = l.centre(h.selected);
    c.ring(p.x, p.y, r + 5, std::max(3, r / 5), kSelect);
  }
}

// What the person asked should click. A turn whose board already changed is choosing refills
// (the move is made; only refill clicks remain before the turn ends).
std::string prompt(const ClickMachine& m, const ClickHints& h, const Position& turn_start,
                   Lang lang) {
  if (h.selected == kCentre) return text(lang, Text::kLeaveCentre);
  if (m.board().cell != turn_start.cell && h.selected < 0) return text(lang, Text::kChooseRefill);
  if (h.selected >= 0) return text(lang, Text::kPickTarget);
  return text(lang, Text::kPickPawn);
}

}  // namespace

void draw_corner_icons(Canvas& c, const CornerIcons& icons, Lang lang) {
  const int size = icons.help.h * 6 / 10;
  button(c, icons.help, "?", size);
  button(c, icons.lang, lang == Lang::kFr ? "FR" : "EN", size * 7 / 10);
}

void draw_menu(Canvas& c, const MenuLayout& l, const MenuState& menu, Lang lang, bool editing,
               const std::string& status) {
  c.clear(kBackground);
  c.text("biloba", l.title.cx(), l.title.y + l.title.h / 8, l.title.h * 3 / 4, {240, 100, 30},
         Align::kCentre, true);
  draw_corner_icons(c, l.icons, lang);
  const int big = l.players.h * 7 / 10;
  c.frame(l.players, kDim, 2);
  c.text(std::to_string(menu.players) + "  " + text(lang, Text::kPlayers), l.players.x + big / 2,
         l.players.y + l.players.h / 8, big, kText, Align::kLeft, true);
  const int size = l.seat_row[0].h * 55 / 100;
  for (int s = 0; s < menu.players; ++s) {
    const Rect& row = l.seat_row[s];
    pawn(c, row.x - row.h / 2, row.cy(), row.h * 4 / 10, s);
    const bool typing = menu.editing_name == s;
    c.frame(row, typing ? kSelect : kDim);
    c.text(menu.names[s] + (typing ? "_" : ""), row.x + size / 2, row.y + row.h / 5, size,
           typing ? kSelect : kText);
    c.frame(l.seat_kind[s], kDim);
    const std::string kind = kind_label(menu.seats[s], lang);
    c.text(kind, l.seat_kind[s].cx(), l.seat_kind[s].y + row.h / 5,
           fit(c, kind, size, l.seat_kind[s].w - 8, true), kText, Align::kCentre, true);
  }
  const std::string server = menu.server.empty() && !editing ? text(lang, Text::kNoServer)
                                                             : menu.server + (editing ? "_" : "");
  c.frame(l.server, editing ? kSelect : kDim);
  const std::string server_line = std::string(text(lang, Text::kServer)) + ": " + server;
  c.text(server_line, l.server.x + size / 2, l.server.y + l.server.h / 5,
         fit(c, server_line, size, l.server.w - size, false), editing ? kSelect : kText);
  const int small = l.lan_title.h * 7 / 10;
  c.text(std::string(text(lang, Text::kLanServers)) + ":" +
             (menu.lan_servers.empty() ? std::string(" ") + text(lang, Text::kLanNone) : ""),
         l.lan_title.x, l.lan_title.y, small, kDim);
  for (std::size_t i = 0; i < l.lan_rows.size() && i < menu.lan_servers.size(); ++i) {
    c.text(menu.lan_servers[i], l.lan_rows[i].x, l.lan_rows[i].y, small, kText);
  }
  if (!status.empty()) c.text(status, l.server.x, l.create.y - size * 2, size, kSelect);
  const int bsize = l.play.h * 35 / 100;
  button(c, l.create, text(lang, Text::kCreate), bsize);
  button(c, l.join, text(lang, Text::kJoin), bsize);
  button(c, l.play, text(lang, Text::kPlay), bsize);
  button(c, l.save_last, text(lang, Text::kSaveLast), bsize * 8 / 10);
}

void draw_game_list(Canvas& c, const GameListLayout& l, const std::string& server,
                    const std::vector<net::ListedGame>& games, const std::string& status,
                    Lang lang) {
  c.clear(kBackground);
  draw_corner_icons(c, l.icons, lang);
  const int size = l.title.h * 55 / 100;
  c.text(std::string(text(lang, Text::kOpenGames)) + " " + server, l.title.x, l.title.y, size,
         kText, Align::kLeft, true);
  if (!status.empty()) {
    c.text(status, l.rows[0].x, l.rows[0].y, size, kSelect);
  } else if (games.empty()) {
    c.text(text(lang, Text::kNoGames), l.rows[0].x, l.rows[0].y, size, kDim);
  }
  for (std::size_t i = 0; i < games.size() && i < l.rows.size() && status.empty(); ++i) {
    c.frame(l.rows[i], kDim);
    c.text(std::to_string(games[i].id) + "   " + wire_text(games[i].name), l.rows[i].x + size / 2,
           l.rows[i].y + l.rows[i].h / 5, size, kText);
  }
  button(c, l.back, text(lang, Text::kBack), size);
}

void draw_game(Canvas& c, const BoardLayout& l, const GameScreen& s, Lang lang) {
  c.clear(kBackground);
  const DriverView& v = *s.view;
  const int size = std::max(10, l.height / 34);
  c.text(s.title, l.board.x, l.icons.help.y, l.icons.help.h * 7 / 10, {240, 100, 30}, Align::kLeft,
         true);
  draw_corner_icons(c, l.icons, lang);
  int y = l.panel.y;
  auto say = [&](const std::string& line, Colour col, bool bold = false) {
    for (const std::string& part : c.wrap(line, size, l.panel.w, bold)) {
      c.text(part, l.panel.x, y, size, col, Align::kLeft, bold);
      y += size * 13 / 10;
    }
  };
  if (v.phase == DriverPhase::kConnecting) {
    say(text(lang, Text::kConnecting), kText, true);
  } else if (v.phase == DriverPhase::kWaiting) {
    say(std::string(text(lang, Text::kWaitOthers)) + " " + std::to_string(v.missing) + " " +
            text(lang, Text::kPlayersMissing),
        kText, true);
  } else if (v.phase == DriverPhase::kFailed) {
    say(std::string(text(lang, Text::kError)) + ": " + v.message, kAccent, true);
  }
  Position pos = v.machine ? v.machine->board() : v.start;
  if (v.someone_left) {  // as the original: every pawn is removed when a player leaves
    for (auto& cell : pos.cell) {
      if (cell < kMaxColours) cell = kEmpty;
    }
    pos.count = {};
  }
  std::vector<int> last;
  if (v.machine && !v.machine->turns().empty()) {
    for (auto code : v.machine->turns().back().token) {
      if (code < kSquares) last.push_back(code);
    }
  }
  draw_board(c, l, pos, s.hints, last);
  if (v.machine) {
    const ClickMachine& m = *v.machine;
    if (v.phase == DriverPhase::kOver) {
      if (!v.message.empty()) say(v.message, kSelect, true);
    } else if (!m.over()) {
      const int seat = m.asked();
      c.disc(l.panel.x + size / 2, y + size * 6 / 10, size / 2, kPawnColours[seat]);
      const std::string who = seat_display_name(seat, v.names);
      c.text(std::string(text(lang, Text::kUpTo)) + " " + who, l.panel.x + size * 3 / 2, y, size,
             kText, Align::kLeft, true);
      y += size * 14 / 10;
      const bool stuck = s.hints.selectable.empty() && s.hints.targets.empty() && s.hints.selected < 0;
      if (seat < static_cast<int>(v.human.size()) && v.human[seat] && stuck) {
        say(who + " " + text(lang, Text::kStuck), kAccent);  // the original waits for ever
      } else if (seat < static_cast<int>(v.human.size()) && v.human[seat]) {
        const Position& turn_start = m.turns().empty() ? v.start : m.turns().back().after;
        if (m.pending_clicks() == 0 && m.board().cell != turn_start.cell) {
          // Captures before any click of this turn: the forced take, waiting for its refill.
          say(who + " " + text(lang, Text::kForcedTake), kSelect);
        }
        say(prompt(m, s.hints, m.turns().empty() ? v.start : m.turns().back().after, lang),
            kDim);
      }
    }
    y += size / 2;
    say(text(lang, Text::kPawns), kDim);
    for (int seat = 0; seat < pos.players; ++seat) {
      c.disc(l.panel.x + size / 2, y + size * 6 / 10, size / 2, kPawnColours[seat]);
      c.text(seat_display_name(seat, v.names) + ": " + std::to_string(pos.count[seat]),
             l.panel.x + size * 3 / 2, y, size, kText);
      y += size * 13 / 10;
    }
    y += size / 2;
    const std::size_t first = s.events.size() > 5 ? s.events.size() - 5 : 0;
    for (std::size_t i = first; i < s.events.size(); ++i) say(s.events[i], kSelect);
  }
  if (s.network) {
    y += size / 2;
    const std::size_t first = v.chat.size() > 4 ? v.chat.size() - 4 : 0;
    for (std::size_t i = first; i < v.chat.size(); ++i) say(v.chat[i], kText);
    c.frame(l.chat_box, kDim);
    const std::string shown = s.chat_input.empty() ? text(lang, Text::kChatHint) : s.chat_input + "_";
    c.text(shown, l.chat_box.x + 4, l.chat_box.y + l.chat_box.h / 5, size,
           s.chat_input.empty() ? kDim : kText);
  }
  if (!s.status.empty()) {
    const int sy = l.menu_button.y - size * 3 - (s.network ? l.chat_box.h : 0);
    int yy = sy;
    for (const std::string& part : c.wrap(s.status, size * 8 / 10, l.panel.w)) {
      c.text(part, l.panel.x, yy, size * 8 / 10, kDim);
      yy += size;
    }
  }
  button(c, l.menu_button, text(lang, Text::kMenu), size);
  button(c, l.save_button, text(lang, Text::kSave), size);
}

void draw_help(Canvas& c, int width, int height, int page, Lang lang) {
  const HelpPage& p = help_page(lang, page);
  c.clear(kBackground);
  const int m = height / 30, size = std::max(10, height / 32);
  draw_corner_icons(c, corner_icons(width, height), lang);
  c.text(p.title, m, height / 48, height / 20, {240, 100, 30}, Align::kLeft, true);
  int y = height / 12 + m;
  for (const std::string& para : p.lines) {
    for (const std::string& line : c.wrap(para, size, width - 2 * m)) {
      c.text(line, m, y, size, kText);
      y += size * 13 / 10;
    }
    y += size / 2;
  }
  // The drawings side by side, each scaled to the space left.
  const int n = static_cast<int>(p.diagrams.size());
  const int area_w = (width - 2 * m) / n, area_h = height - y - size * 4;
  for (int i = 0; i < n; ++i) {
    const Diagram& d = p.diagrams[i];
    int cols = 0;
    for (const auto& row : d.rows) cols = std::max(cols, static_cast<int>(row.size()));
    const int rows = static_cast<int>(d.rows.size());
    const int cell = std::max(4, std::min({(area_w - m) / std::max(1, cols),
                                           (area_h - size * 2) / std::max(1, rows), height / 14}));
    const int x0 = m + i * area_w + (area_w - cell * cols) / 2, y0 = y;
    for (int r = 0; r < rows; ++r) {
      for (int col = 0; col < static_cast<int>(d.rows[r].size()); ++col) {
        const char ch = d.rows[r][col];
        if (ch == ' ') continue;
        const int cx = x0 + col * cell + cell / 2, cy = y0 + r * cell + cell / 2;
        if (ch == '*') {
          centre_star(c, cx, cy, cell);
          continue;
        }
        c.fill({cx - cell / 2 + 1, cy - cell / 2 + 1, cell - 2, cell - 2}, kSquareColour);
        const int pr = cell * 38 / 100;
        if (ch == 'O' || ch == 'o') pawn(c, cx, cy, pr, 0);
        if (ch == 'B' || ch == 'b' || ch == 'x') pawn(c, cx, cy, pr, 1);
        if (ch == 'R') pawn(c, cx, cy, pr, 2);
        if (ch == 'G') pawn(c, cx, cy, pr, 3);
        if (ch == 'o' || ch == 'b') c.ring(cx, cy, pr + 4, std::max(2, pr / 5), kSelect);
        if (ch == '+') c.ring(cx, cy, pr * 6 / 10, std::max(2, pr / 6), kTarget);
        if (ch == 'x') {
          c.line(cx - pr, cy - pr, cx + pr, cy + pr, kAccent);
          c.line(cx - pr, cy + pr, cx + pr, cy - pr, kAccent);
        }
      }
    }
    c.text(d.caption, m + i * area_w + area_w / 2, y0 + rows * cell + size / 2, size * 85 / 100,
           kDim, Align::kCentre);
  }
  c.text(text(lang, Text::kHelpNext), width / 2, height - size * 2, size, kDim, Align::kCentre);
}

}  // namespace plateau::gui
