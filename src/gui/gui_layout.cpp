#include "gui/gui_layout.h"

#include <algorithm>

namespace plateau::gui {

namespace {

int top_bar(int height) { return height / 12; }
int margin(int height) { return std::max(2, height / 40); }

}  // namespace

CornerIcons corner_icons(int width, int height) {
  const int side = std::max(16, top_bar(height) * 7 / 10);
  const int gap = side / 4;
  const int y = (top_bar(height) - side) / 2;
  CornerIcons icons;
  icons.help = {width - gap - side, y, side, side};
  icons.lang = {icons.help.x - gap - side, y, side, side};
  return icons;
}

BoardLayout BoardLayout::for_window(int width, int height) {
  BoardLayout l;
  l.width = width;
  l.height = height;
  const int top = top_bar(height), m = margin(height);
  int side = std::min(height - top - 2 * m, width * 2 / 3 - 2 * m);
  side = std::max(9, side - side % 9);
  l.cell = side / 9;
  l.board = {m, top + m, side, side};
  const int px = l.board.x + side + 2 * m;
  l.panel = {px, top + m, std::max(1, width - px - m), side};
  const int bh = std::max(14, height / 16);
  const int bw = std::max(20, (l.panel.w - m) / 2);
  l.menu_button = {px, l.panel.y + l.panel.h - bh, bw, bh};
  l.save_button = {px + bw + m, l.menu_button.y, bw, bh};
  l.chat_box = {px, l.menu_button.y - m - bh, l.panel.w, bh};
  l.icons = corner_icons(width, height);
  return l;
}

Point BoardLayout::centre(int square) const {
  return {board.x + (square % 9) * cell + cell / 2, board.y + (square / 9) * cell + cell / 2};
}

int BoardLayout::square_at(int px, int py) const {
  if (!board.contains(px, py)) return -1;
  const int x = (px - board.x) / cell, y = (py - board.y) / cell;
  if (x < 0 || x > 8 || y < 0 || y > 8) return -1;
  return 9 * y + x;
}

MenuLayout MenuLayout::for_window(int width, int height) {
  MenuLayout l;
  l.width = width;
  l.height = height;
  const int top = top_bar(height), m = margin(height);
  const int row = std::max(16, height / 15);
  l.title = {m, 0, width - 2 * m, top};
  l.players = {m, top + m, width / 2, row * 5 / 4};
  int y = l.players.y + l.players.h + m;
  const int name_w = width * 3 / 10, kind_w = width / 5;
  for (int s = 0; s < 4; ++s) {
    l.seat_row[s] = {m + row, y, name_w, row};
    l.seat_kind[s] = {m + row + name_w, y, kind_w, row};
    y += row;
  }
  y += m;
  l.server = {m, y, width - 2 * m, row};
  y += row + m / 2;
  l.lan_title = {m, y, width - 2 * m, row * 3 / 4};
  y += l.lan_title.h;
  for (int i = 0; i < 4; ++i) {
    l.lan_rows[i] = {m + row, y, width / 2, row * 3 / 4};
    y += l.lan_rows[i].h;
  }
  const int bh = std::max(16, height / 12);
  const int bw = (width - 4 * m) / 3;
  const int by = height - m - bh;
  l.create = {m, by, bw, bh};
  l.join = {2 * m + bw, by, bw, bh};
  l.play = {3 * m + 2 * bw, by, bw, bh};
  l.save_last = {3 * m + 2 * bw, by - m - bh, bw, bh};
  l.icons = corner_icons(width, height);
  return l;
}

GameListLayout GameListLayout::for_window(int width, int height) {
  GameListLayout l;
  const int top = top_bar(height), m = margin(height);
  const int row = std::max(16, height / 12);
  l.title = {m, top, width - 2 * m, row};
  int y = top + row + m;
  for (auto& r : l.rows) {
    r = {m * 2, y, width - 4 * m, row};
    y += row + m / 2;
  }
  l.back = {m, height - m - row, width / 4, row};
  l.icons = corner_icons(width, height);
  return l;
}

}  // namespace plateau::gui
