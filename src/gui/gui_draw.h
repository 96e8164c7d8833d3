#pragma once
// Drawing primitives over SDL2 and SDL2_ttf: filled rectangles, discs and rings (the pawns),
// text in DejaVu Sans (Debian's fonts-dejavu-core, found at run time) at any pixel size.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gui/gui_layout.h"

struct SDL_Renderer;
typedef struct _TTF_Font TTF_Font;

namespace plateau::gui {

struct Colour {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
};

enum class Align { kLeft, kCentre, kRight };

// The path of DejaVu Sans (bold or not): $PLATEAU_FONT / $PLATEAU_FONT_BOLD when set and a
// file, else the Debian locations (regular DejaVu Sans stands in for the bold). Empty when none
// exists.
std::string find_font(bool bold);

class Canvas {
 public:
  // `regular` and `bold` are font files (find_font). Throws std::runtime_error when a font
  // cannot be opened.
  Canvas(SDL_Renderer* renderer, std::string regular, std::string bold);
  ~Canvas();
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  void clear(Colour c);
  void fill(const Rect& r, Colour c);
  void frame(const Rect& r, Colour c, int thickness = 1);
  void disc(int cx, int cy, int radius, Colour c);
  void ring(int cx, int cy, int radius, int thickness, Colour c);
  void line(int x1, int y1, int x2, int y2, Colour c);
  // Draws one line of UTF-8 text with its top at y; x is its left, centre or right edge.
  // Returns the width drawn. `size` is the font's pixel size.
  int text(const std::string& s, int x, int y, int size, Colour c, Align align = Align::kLeft,
           bool bold = false);
  int text_width(const std::string& s, int size, bool bold = false);
  // Splits `s` at spaces into lines no wider than `width` pixels.
  std::vector<std::string> wrap(const std::string& s, int size, int width, bool bold = false);

 private:
  TTF_Font* font(int size, bool bold);
  SDL_Renderer* renderer_;
  std::string regular_, bold_;
  std::map<std::pair<int, bool>, TTF_Font*> fonts_;
};

}  // namespace plateau::gui
