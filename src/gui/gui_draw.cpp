#include "gui/gui_draw.h"

#include <SDL.h>
#include <SDL_ttf.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace plateau::gui {

std::string find_font(bool bold) {
  const char* env = std::getenv(bold ? "PLATEAU_FONT_BOLD" : "PLATEAU_FONT");
  const char* const candidates[] = {
      env != nullptr ? env : "",
      bold ? "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
           : "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
      "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  };
  for (const char* path : candidates) {
    std::error_code ec;
    if (*path != '\0' && std::filesystem::is_regular_file(path, ec)) return path;
  }
  return {};
}

Canvas::Canvas(SDL_Renderer* renderer, std::string regular, std::string bold)
    : renderer_(renderer), regular_(std::move(regular)), bold_(std::move(bold)) {
  font(16, false);  // fails now, with a clear message, rather than at the first text
}

Canvas::~Canvas() {
  for (auto& [key, f] : fonts_) TTF_CloseFont(f);
}

TTF_Font* Canvas::font(int size, bool bold) {
  size = std::max(6, std::min(size, 200));
  const auto key = std::make_pair(size, bold);
  if (auto it = fonts_.find(key); it != fonts_.end()) return it->second;
  const std::string& path = bold ? bold_ : regular_;
  TTF_Font* f = TTF_OpenFont(path.c_str(), size);
  if (f == nullptr) throw std::runtime_error("cannot open the font " + path + ": " + TTF_GetError());
  fonts_[key] = f;
  return f;
}

void Canvas::clear(Colour c) {
  SDL_SetRenderDrawColor(renderer_, c.r, c.g, c.b, c.a);
  SDL_RenderClear(renderer_);
}

void Canvas::fill(const Rect& r, Colour c) {
  SDL_SetRenderDrawColor(renderer_, c.r, c.g, c.b, c.a);
  const SDL_Rect s{r.x, r.y, r.w, r.h};
  SDL_RenderFillRect(renderer_, &s);
}

void Canvas::frame(const Rect& r, Colour c, int thickness) {
  for (int i = 0; i < thickness; ++i) {
    SDL_SetRenderDrawColor(renderer_, c.r, c.g, c.b, c.a);
    const SDL_Rect s{r.x + i, r.y + i, r.w - 2 * i, r.h - 2 * i};
    SDL_RenderDrawRect(renderer_, &s);
  }
}

void Canvas::disc(int cx, int cy, int radius, Colour c) {
  // Horizontal spans: exact pixels, so a disc's centre pixel is always its colour.
  SDL_SetRenderDrawColor(renderer_, c.r, c.g, c.b, c.a);
  for (int dy = -radius; dy <= radius; ++dy) {
    const int dx = static_cast<int>(std::sqrt(static_cast<double>(radius * radius - dy * dy)));
    SDL_RenderDrawLine(renderer_, cx - dx, cy + dy, cx + dx, cy + dy);
  }
}

void Canvas::ring(int cx, int cy, int radius, int thickness, Colour c) {
  SDL_SetRenderDrawColor(renderer_, c.r, c.g, c.b, c.a);
  const int inner = std::max(0, radius - thickness);
  for (int dy = -radius; dy <= radius; ++dy) {
    const int outer_dx = static_cast<int>(std::sqrt(static_cast<double>(radius * radius - dy * dy)));
    if (std::abs(dy) >= inner) {
      SDL_RenderDrawLine(renderer_, cx - outer_dx, cy + dy, cx + outer_dx, cy + dy);
      continue;
    }
    const int inner_dx = static_cast<int>(std::sqrt(static_cast<double>(inner * inner - dy * dy)));
    SDL_RenderDrawLine(renderer_, cx - outer_dx, cy + dy, cx - inner_dx, cy + dy);
    SDL_RenderDrawLine(renderer_, cx + inner_dx, cy + dy, cx + outer_dx, cy + dy);
  }
}

void Canvas::line(int x1, int y1, int x2, int y2, Colour c) {
  SDL_SetRenderDrawColor(renderer_, c.r, c.g, c.b, c.a);
  SDL_RenderDrawLine(renderer_, x1, y1, x2, y2);
}

int Canvas::text_width(const std::string& s, int size, bool bold) {
  int w = 0, h = 0;
  if (s.empty() || TTF_SizeUTF8(font(size, bold), s.c_str(), &w, &h) != 0) return 0;
  return w;
}

int Canvas::text(const std::string& s, int x, int y, int size, Colour c, Align align, bool bold) {
  if (s.empty()) return 0;
  SDL_Surface* surface =
      TTF_RenderUTF8_Blended(font(size, bold), s.c_str(), SDL_Color{c.r, c.g, c.b, c.a});
  if (surface == nullptr) return 0;
  SDL_Texture* texture = SDL_CreateTextureFromSurface(renderer_, surface);
  SDL_Rect dst{x, y, surface->w, surface->h};
  if (align == Align::kCentre) dst.x -= surface->w / 2;
  if (align == Align::kRight) dst.x -= surface->w;
  if (texture != nullptr) {
    SDL_RenderCopy(renderer_, texture, nullptr, &dst);
    SDL_DestroyTexture(texture);
  }
  SDL_FreeSurface(surface);
  return dst.w;
}

std::vector<std::string> Canvas::wrap(const std::string& s, int size, int width, bool bold) {
  std::vector<std::string> lines;
  std::string current;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t end = s.find(' ', start);
    if (end == std::string::npos) end = s.size();
    const std::string word = s.substr(start, end - start);
    const std::string candidate = current.empty() ? word : current + " " + word;
    if (!current.empty() && text_width(candidate, size, bold) > width) {
      lines.push_back(current);
      current = word;
    } else {
      current = candidate;
    }
    start = end + 1;
  }
  if (!current.empty()) lines.push_back(current);
  return lines;
}

}  // namespace plateau::gui
