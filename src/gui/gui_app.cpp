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

#include <cstdlib>

#include "compat/biloba/blb.h"
#include "gui/gui_app_state.h"

namespace plateau::gui {

namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point kProcessStart = Clock::now();

}  // namespace

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

int run_window(const WindowOptions& o) {
  if (find_font(false).empty()) {
    throw WindowUnavailable("the font DejaVu Sans is missing (Debian package fonts-dejavu-core)");
  }
  // Only the drivers of a desktop: SDL would otherwise go on to others (and wait 20 s) when the
  // X server named by DISPLAY cannot be reached. SDL_VIDEODRIVER still overrides.
  if (std::getenv("SDL_VIDEODRIVER") == nullptr) {
    const char* x11 = std::getenv("DISPLAY");
    SDL_SetHint(SDL_HINT_VIDEODRIVER, x11 != nullptr && *x11 != '\0' ? "x11,wayland" : "wayland,x11");
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
  std::unique_ptr<App> app;
  try {
    app = std::make_unique<App>(o, window, renderer);
  } catch (const std::runtime_error& e) {  // a font file SDL_ttf cannot read
    SDL_DestroyRenderer(renderer);
    SDL_DestroyWindow(window);
    TTF_Quit();
    SDL_Quit();
    throw WindowUnavailable(e.what());
  }
  const int status = app->run();
  app.reset();
  SDL_DestroyRenderer(renderer);
  SDL_DestroyWindow(window);
  TTF_Quit();
  SDL_Quit();
  return status;
}

}  // namespace plateau::gui
