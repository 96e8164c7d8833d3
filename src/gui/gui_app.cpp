// The event loop. The test trace (--trace FILE) gets one line per event, written after the
// frame that shows it is on the screen:
//   menu MS                 the menu's first frame, MS milliseconds after the process started
//   help N                  help page N shown
//   game                    the game screen's first frame
//   seats NAME|NAME...      the seats' names, once known (network games: when all joined)
//   turn N C TOKEN POS      a completed turn (gui_turns.h trace_turn)
//   ready SEAT TURNS        a person of this window is asked to click (TURNS turns played)
//   over MESSAGE            the game ended (MESSAGE may be empty)
//   saved PATH | save-error TEXT
//   chat LINE               a chat line shown
//   lan HOST                a server heard on the LAN, listed in the menu
//   server HOST             the menu's server chosen by a click on a LAN server
#include "gui/gui_app.h"

#include <SDL.h>
#include <SDL_ttf.h>

#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>

#include "compat/biloba/blb.h"
#include "compat/biloba/legacy_client.h"
#include "core/text.h"
#include "gui/gui_draw.h"
#include "gui/gui_driver.h"
#include "gui/gui_lookups.h"
#include "gui/gui_screens.h"

namespace plateau::gui {

namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point kProcessStart = Clock::now();

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
  void save();
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
  std::uint64_t seen_version_ = ~0ull;
  std::size_t shown_turns_ = 0;
  std::vector<std::string> events_, pending_trace_;
  std::size_t shown_chat_ = 0;
  std::string chat_input_, ready_key_;
  bool over_traced_ = false, network_ = false, list_done_ = false, seats_traced_ = false;
  std::string title_ = "Biloba";
  ClickHints hints_;
};

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

void App::save() {
  const DriverView v = driver_ ? driver_->view() : DriverView{};
  if (v.clicks.records.size() < 3) {  // as the original: nothing worth a file
    status_ = text(lang_, Text::kSaveNothing);
    return;
  }
  try {
    const std::string path = biloba::net::save_last_game_path(std::time(nullptr));
    biloba::net::write_blb_file(path, v.clicks);
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
  } else if (l.save_button.contains(x, y)) {
    save();
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

void App::refresh() {
  if (screen_ == Screen::kMenu) {
    const std::vector<std::string> hosts = lan_.hosts();
    if (hosts != menu_.lan_servers) {
      for (std::size_t i = menu_.lan_servers.size(); i < hosts.size(); ++i) {
        pending_trace_.push_back("lan " + hosts[i]);
      }
      menu_.lan_servers = hosts;
      dirty_ = true;
    }
  }
  if (screen_ == Screen::kList) {
    if (list_done_ != list_->done()) {
      list_done_ = true;
      dirty_ = true;
    }
  }
  if (!driver_ || driver_->version() == seen_version_) return;
  view_ = driver_->view();
  seen_version_ = view_.version;
  dirty_ = true;
  hints_ = {};
  if (!view_.machine) return;
  const biloba::ClickMachine& m = *view_.machine;
  for (; shown_turns_ < m.turns().size(); ++shown_turns_) {
    const auto& t = m.turns()[shown_turns_];
    const biloba::Position& before = shown_turns_ == 0 ? view_.start : m.turns()[shown_turns_ - 1].after;
    for (auto& e : turn_events(t, before, view_.names, lang_)) events_.push_back(std::move(e));
    pending_trace_.push_back(trace_turn(shown_turns_ + 1, t));
  }
  for (; shown_chat_ < view_.chat.size(); ++shown_chat_) {
    pending_trace_.push_back("chat " + view_.chat[shown_chat_]);
  }
  const int seat = m.asked();
  if (view_.phase == DriverPhase::kPlaying && seat >= 0 &&
      seat < static_cast<int>(view_.human.size()) && view_.human[seat]) {
    hints_ = click_hints(m);
    const std::string key = std::to_string(seat) + " " + std::to_string(m.turns().size());
    if (key != ready_key_) {
      ready_key_ = key;
      pending_trace_.push_back("ready " + key);
    }
  }
  if (view_.phase == DriverPhase::kOver && !over_traced_) {
    over_traced_ = true;
    pending_trace_.push_back("over " + view_.message);
  }
}

void App::draw() {
  int w = 0, h = 0;
  SDL_GetRendererOutputSize(SDL_GetRenderer(window_), &w, &h);
  if (help_ > 0) {
    draw_help(canvas_, w, h, help_, lang_);
  } else if (screen_ == Screen::kMenu) {
    draw_menu(canvas_, MenuLayout::for_window(w, h), menu_, lang_, editing_server_, status_);
  } else if (screen_ == Screen::kList) {
    const bool done = list_->done();
    const std::string status =
        done ? list_->error() : std::string(text(lang_, Text::kConnecting)) + " " + menu_.server;
    draw_game_list(canvas_, GameListLayout::for_window(w, h), menu_.server, list_->games(), status,
                   lang_);
  } else {
    GameScreen s;
    s.view = &view_;
    s.hints = hints_;
    s.events = events_;
    s.chat_input = chat_input_;
    s.network = network_;
    s.status = status_;
    s.title = title_;
    draw_game(canvas_, BoardLayout::for_window(w, h), s, lang_);
  }
  SDL_RenderPresent(SDL_GetRenderer(window_));
  if (screen_ == Screen::kMenu && !menu_traced_) {
    menu_traced_ = true;
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - kProcessStart);
    trace("menu " + std::to_string(ms.count()));
  }
  if (screen_ == Screen::kGame && !game_traced_) {
    game_traced_ = true;
    trace("game");
  }
  if (screen_ == Screen::kGame && !seats_traced_ && !view_.names.empty()) {
    seats_traced_ = true;
    std::string names;
    for (const std::string& n : view_.names) names += (names.empty() ? "" : "|") + n;
    trace("seats " + names);
  }
  for (const std::string& line : pending_trace_) trace(line);
  pending_trace_.clear();
}

int App::run() {
  if (!o_.replay_file.empty()) {
    const biloba::net::BlbGame game = biloba::net::read_blb_file(o_.replay_file);
    driver_ = GameDriver::replay(game, o_.replay_delay, lang_);
    title_ = std::string(text(lang_, Text::kReplay)) + " " + o_.replay_file;
    screen_ = Screen::kGame;
  } else if (o_.start) {
    switch (o_.start->kind) {
      case StartSpec::Kind::kLocal:
        start_local(o_.start->seats);
        break;
      case StartSpec::Kind::kCreate:
        start_network(true, 0);
        break;
      case StartSpec::Kind::kJoin:
        start_network(false, o_.start->id);
        break;
      case StartSpec::Kind::kHelp:
        help_ = 1;
        pending_trace_.push_back("help 1");
        break;
    }
  }
  while (!quit_) {
    SDL_Event e;
    const bool got = SDL_WaitEventTimeout(&e, 30) != 0;
    if (got) {
      switch (e.type) {
        case SDL_QUIT:
          quit_ = true;
          break;
        case SDL_MOUSEBUTTONDOWN:
          if (e.button.button == SDL_BUTTON_LEFT) on_click(e.button.x, e.button.y);
          break;
        case SDL_KEYDOWN:
          on_key(e.key);
          break;
        case SDL_TEXTINPUT:
          on_text(e.text.text);
          break;
        case SDL_WINDOWEVENT:
          dirty_ = true;
          break;
        default:
          break;
      }
    }
    refresh();
    if (dirty_) {
      dirty_ = false;
      draw();
    }
  }
  return 0;
}

}  // namespace

int run_window(const WindowOptions& o) {
  if (find_font(false).empty()) {
    throw WindowUnavailable("the font DejaVu Sans is missing (Debian package fonts-dejavu-core)");
  }
  if (SDL_Init(SDL_INIT_VIDEO) != 0) throw WindowUnavailable(SDL_GetError());
  if (TTF_Init() != 0) {
    SDL_Quit();
    throw WindowUnavailable(TTF_GetError());
  }
  SDL_Window* window = SDL_CreateWindow("Biloba", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                        o.width, o.height, SDL_WINDOW_RESIZABLE);
  if (window == nullptr) {
    const std::string error = SDL_GetError();
    TTF_Quit();
    SDL_Quit();
    throw WindowUnavailable(error);
  }
  SDL_SetWindowMinimumSize(window, 320, 240);
  SDL_Renderer* renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC);
  if (renderer == nullptr) renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE);
  int status = 0;
  {
    App app(o, window, renderer);
    status = app.run();
  }
  SDL_DestroyRenderer(renderer);
  SDL_DestroyWindow(window);
  TTF_Quit();
  SDL_Quit();
  return status;
}

}  // namespace plateau::gui
