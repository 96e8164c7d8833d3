#pragma once
// The window's state and event handling (gui_app.cpp: the loop, the drawing, the trace;
// gui_app_input.cpp: clicks, keys and typed text). Private to the two files.
#include <SDL.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "gui/gui_app.h"
#include "gui/gui_draw.h"
#include "gui/gui_driver.h"
#include "gui/gui_lookups.h"
#include "gui/gui_screens.h"

namespace plateau::gui {

class App {
 public:
  App(const WindowOptions& o, SDL_Window* w, SDL_Renderer* r)
      : o_(o), window_(w), canvas_(r, find_font(false), find_font(true)), lang_(o.lang),
        menu_(o.lang) {
    menu_.players = o.players;
    menu_.server = o.server;
    if (!o.trace_file.empty()) trace_.open(o.trace_file, std::ios::trunc);
  }

  int run();

 private:
  enum class Screen { kMenu, kList, kGame };
  void start_local(const std::vector<SeatKind>& seats);
  void start_network(bool create, int join_id);
  void back_to_menu();
  void on_click(int x, int y);
  void on_key(const SDL_KeyboardEvent& k);
  void on_text(const char* utf8);
  void refresh();  // reads the driver and the LAN list; sets dirty_
  void draw();
  // Writes `clicks` as $HOME[/Desktop]/Biloba-DATE.blb (the original's SAVE LAST GAME).
  void save(const biloba::net::BlbGame& clicks);
  void trace(const std::string& line) {
    if (trace_.is_open()) trace_ << line << "\n" << std::flush;
  }

  WindowOptions o_;
  SDL_Window* window_;
  Canvas canvas_;
  Lang lang_;
  MenuState menu_;
  LanListener lan_;
  std::ofstream trace_;
  Screen screen_ = Screen::kMenu;
  int help_ = 0;  // help page shown over the screen (0 = none)
  bool editing_server_ = false;
  bool dirty_ = true, quit_ = false, menu_traced_ = false, game_traced_ = false;
  std::string status_;
  std::unique_ptr<GameListFetch> list_;
  std::unique_ptr<GameDriver> driver_;
  DriverView view_;
  biloba::net::BlbGame last_clicks_;  // the game left last (SAVE LAST GAME in the menu)
  std::uint64_t seen_version_ = ~0ull;
  std::size_t shown_turns_ = 0;
  std::vector<std::string> events_, pending_trace_;
  std::size_t shown_chat_ = 0;
  std::string chat_input_, ready_key_;
  bool over_traced_ = false, network_ = false, list_done_ = false, seats_traced_ = false;
  std::string title_ = "Biloba";
  ClickHints hints_;
};

}  // namespace plateau::gui
