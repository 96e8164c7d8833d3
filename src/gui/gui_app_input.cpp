// The window's input: clicks, keys and typed text, and the games they start.
#include <SDL.h>

#include <cstring>
#include <ctime>

#include "compat/biloba/blb.h"
#include "core/text.h"
#include "gui/gui_app_state.h"

namespace plateau::gui {

void App::start_local(const std::vector<SeatKind>& seats) {
  LocalSetup s;
  s.players = static_cast<int>(seats.size());
  s.seats = seats;
  s.names.assign(menu_.names.begin(), menu_.names.begin() + s.players);
  s.seed = o_.seed;
  s.cpu_delay = o_.cpu_delay;
  s.lang = lang_;
  driver_ = GameDriver::local(s);
  network_ = false;
  screen_ = Screen::kGame;
}

void App::start_network(bool create, int join_id) {
  NetworkSetup s;
  s.host = menu_.server;
  s.port = o_.port;
  s.players = menu_.players;
  s.create = create;
  s.my_name = o_.name.empty() ? menu_.names[0] : o_.name;
  s.game_name = create && o_.start && !o_.start->name.empty()
                    ? o_.start->name
                    : s.my_name + " " + text(lang_, Text::kGameName);
  s.join_id = join_id;
  s.my_kind = menu_.seats[0];
  s.seed = o_.seed;
  s.cpu_delay = o_.cpu_delay;
  s.lang = lang_;
  driver_ = GameDriver::network(s);
  network_ = true;
  screen_ = Screen::kGame;
  SDL_StartTextInput();
}

void App::back_to_menu() {
  if (driver_) last_clicks_ = driver_->view().clicks;
  driver_.reset();
  view_ = DriverView{};
  seen_version_ = ~0ull;
  shown_turns_ = shown_chat_ = 0;
  events_.clear();
  chat_input_.clear();
  ready_key_.clear();
  over_traced_ = game_traced_ = seats_traced_ = false;
  hints_ = {};
  status_.clear();
  title_ = "Biloba";
  screen_ = Screen::kMenu;
  dirty_ = true;
}

void App::save(const biloba::net::BlbGame& clicks) {
  if (clicks.records.size() < 3) {  // as the original: nothing worth a file
    status_ = text(lang_, Text::kSaveNothing);
    return;
  }
  try {
    const std::string path = biloba::net::save_last_game_path(std::time(nullptr));
    biloba::net::write_blb_file(path, clicks);
    status_ = std::string(text(lang_, Text::kSaved)) + " " + path;
    pending_trace_.push_back("saved " + path);
  } catch (const std::exception& e) {
    status_ = std::string(text(lang_, Text::kError)) + ": " + e.what();
    pending_trace_.push_back(std::string("save-error ") + e.what());
  }
}

void App::on_click(int x, int y) {
  dirty_ = true;
  int w = 0, h = 0;
  SDL_GetRendererOutputSize(SDL_GetRenderer(window_), &w, &h);
  if (help_ > 0) {  // a click anywhere turns the page; after the last, back to the screen
    help_ = help_ == 6 ? 0 : help_ + 1;
    if (help_ > 0) pending_trace_.push_back("help " + std::to_string(help_));
    return;
  }
  const CornerIcons icons = corner_icons(w, h);
  if (icons.help.contains(x, y)) {
    help_ = 1;
    pending_trace_.push_back("help 1");
    return;
  }
  if (icons.lang.contains(x, y)) {
    lang_ = lang_ == Lang::kEn ? Lang::kFr : Lang::kEn;
    return;
  }
  if (screen_ == Screen::kMenu) {
    editing_server_ = false;
    const std::string server = menu_.server;
    const MenuAction action = menu_click(menu_, MenuLayout::for_window(w, h), x, y);
    if (menu_.server != server) pending_trace_.push_back("server " + menu_.server);
    switch (action) {
      case MenuAction::kPlay:
        start_local({menu_.seats.begin(), menu_.seats.begin() + menu_.players});
        break;
      case MenuAction::kSaveLast:
        save(last_clicks_);
        break;
      case MenuAction::kCreate:
      case MenuAction::kJoin: {
        const bool create = action == MenuAction::kCreate;
        if (menu_.server.empty()) {
          status_ = std::string(text(lang_, Text::kServer)) + ": " + text(lang_, Text::kNoServer);
          break;
        }
        if (create) {
          start_network(true, 0);
          break;
        }
        list_ = std::make_unique<GameListFetch>(menu_.server, o_.port, menu_.players);
        list_done_ = false;
        screen_ = Screen::kList;
        break;
      }
      case MenuAction::kEditServer:
        editing_server_ = true;
        SDL_StartTextInput();
        break;
      case MenuAction::kEditName:
        SDL_StartTextInput();
        break;
      default:
        break;
    }
    return;
  }
  if (screen_ == Screen::kList) {
    const GameListLayout l = GameListLayout::for_window(w, h);
    if (l.back.contains(x, y)) {
      back_to_menu();
      return;
    }
    const auto games = list_->games();
    for (std::size_t i = 0; i < games.size() && i < l.rows.size(); ++i) {
      if (l.rows[i].contains(x, y)) {
        const int id = games[i].id;
        start_network(false, id);
        return;
      }
    }
    return;
  }
  const BoardLayout l = BoardLayout::for_window(w, h);
  if (l.menu_button.contains(x, y)) {
    back_to_menu();
  } else if (l.save_button.contains(x, y) && driver_) {
    save(driver_->view().clicks);
  } else if (const int sq = l.square_at(x, y); sq >= 0 && driver_) {
    driver_->click(sq);
  }
}

void App::on_key(const SDL_KeyboardEvent& k) {
  const SDL_Keycode key = k.keysym.sym;
  dirty_ = true;
  const bool ctrl = (k.keysym.mod & KMOD_CTRL) != 0;
  // The original's keys: Ctrl-Q quits (Ctrl-A too, for AZERTY keyboards), Ctrl-E ends the game.
  if (ctrl && (key == SDLK_q || key == SDLK_a)) {
    quit_ = true;
  } else if (ctrl && key == SDLK_e) {
    if (screen_ == Screen::kGame) back_to_menu();
  } else if (key == SDLK_ESCAPE) {
    if (help_ > 0) {
      help_ = 0;
    } else if (editing_server_ || menu_.editing_name >= 0) {
      editing_server_ = false;
      menu_.editing_name = -1;
    } else if (screen_ != Screen::kMenu) {
      back_to_menu();
    }
  } else if (key == SDLK_F1) {
    help_ = 1;
    pending_trace_.push_back("help 1");
  } else if (key == SDLK_BACKSPACE) {
    std::string& s = editing_server_            ? menu_.server
                     : menu_.editing_name >= 0 ? menu_.names[menu_.editing_name]
                                               : chat_input_;
    while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.pop_back();
    if (!s.empty()) s.pop_back();
  } else if (key == SDLK_RETURN || key == SDLK_KP_ENTER) {
    if (editing_server_ || menu_.editing_name >= 0) {
      editing_server_ = false;
      menu_.editing_name = -1;
    } else if (screen_ == Screen::kGame && network_ && driver_ && !chat_input_.empty()) {
      driver_->say(chat_input_);
      chat_input_.clear();
    }
  }
}

void App::on_text(const char* utf8) {
  if (screen_ == Screen::kMenu && menu_.editing_name >= 0) {
    std::string& name = menu_.names[menu_.editing_name];
    name = std::string(utf8_prefix(name + utf8, kMaxNameBytes));
  } else if (editing_server_) {
    if (menu_.server.size() + std::strlen(utf8) <= 255) menu_.server += utf8;  // a host name's bound
  } else if (screen_ == Screen::kGame && network_) {
    // The protocol carries at most 254 bytes a line; whole UTF-8 characters only.
    chat_input_ = std::string(utf8_prefix(chat_input_ + utf8, 250));
  } else {
    return;
  }
  dirty_ = true;
}

}  // namespace plateau::gui
