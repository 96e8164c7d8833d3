#include "gui/gui_driver.h"

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "compat/biloba/click_game.h"
#include "core/text.h"
#include "compat/biloba/legacy_client.h"
#include "games/biloba/biloba_board.h"
#include "gui/gui_turns.h"

namespace plateau::gui {

using namespace plateau::biloba;
using namespace plateau::biloba::net;

struct GameDriver::Shared {
  mutable std::mutex mu;
  std::condition_variable cv;
  DriverView view;
  Lang lang = Lang::kEn;
  std::deque<std::pair<std::size_t, int>> clicks;  // (turn index when clicked, square)
  bool stop = false;
  LegacyClient* client = nullptr;      // while a network game runs (closed to stop it)
  std::unique_ptr<Connection> chat;    // the talk connection of a network game
  std::mutex chat_write;

  void publish(const ClickMachine& m) {
    std::lock_guard lock(mu);
    view.machine = m;
    view.phase = DriverPhase::kPlaying;
    ++view.version;
  }
  void record(int seat, int square) {
    std::lock_guard lock(mu);
    view.clicks.records.push_back({seat, x_of(square), y_of(square)});
  }
  void set_phase(DriverPhase p, const std::string& message = {}) {
    std::lock_guard lock(mu);
    view.phase = p;
    view.message = message;
    ++view.version;
  }
  GameHooks hooks() {
    GameHooks h;
    h.on_turn = [this](const ClickMachine& m, int) { publish(m); };
    h.on_click = [this](const ClickMachine& m, int seat, int square, ClickEffect) {
      record(seat, square);
      publish(m);
    };
    return h;
  }
  void finish(const GameOutcome& out) {
    std::lock_guard lock(mu);
    view.phase = DriverPhase::kOver;
    if (out.left_seat >= 0) {
      view.someone_left = true;
      view.message = seat_display_name(out.left_seat, view.names) + " " + text(lang, Text::kLeaves);
    } else {
      view.message = result_text(out.final_board, view.names, lang);
    }
    ++view.version;
  }
  std::string seat_display_name(int seat, const std::vector<std::string>& names) const {
    if (seat >= 0 && seat < static_cast<int>(names.size()) && !names[seat].empty()) {
      return names[seat];
    }
    return std::string(text(lang, Text::kPlayerN)) + " " + std::to_string(seat + 1);
  }
};

namespace {

// Chat lines kept for the window (it shows the last few): a peer cannot grow memory for ever.
constexpr std::size_t kChatKept = 100;

void add_chat(DriverView& view, std::string line) {
  view.chat.push_back(std::move(line));
  if (view.chat.size() > kChatKept) view.chat.erase(view.chat.begin());
  ++view.version;
}

// The person at the window: clicks fed by GameDriver::click, for the turn they were made in.
class WindowInput : public SeatInput {
 public:
  explicit WindowInput(std::shared_ptr<GameDriver::Shared> s) : s_(std::move(s)) {}
  int next_click(const ClickMachine& machine) override {
    std::unique_lock lock(s_->mu);
    while (true) {
      if (s_->stop) return -1;
      while (!s_->clicks.empty() && s_->clicks.front().first != machine.turns().size()) {
        s_->clicks.pop_front();  // made during an earlier turn: not meant for this one
      }
      if (!s_->clicks.empty()) {
        const int sq = s_->clicks.front().second;
        s_->clicks.pop_front();
        return sq;
      }
      s_->cv.wait(lock);
    }
  }

 private:
  std::shared_ptr<GameDriver::Shared> s_;
};

// A bot's seat that stops playing once the window left the game (a game of bots alone would
// otherwise go on, unseen, on its thread).
class BotSeat : public SeatInput {
 public:
  BotSeat(std::shared_ptr<GameDriver::Shared> s, const std::string& bot, std::uint64_t seed,
          const Position& start, std::chrono::milliseconds delay)
      : s_(std::move(s)), bot_(bot, seed, start, delay) {}
  int next_click(const ClickMachine& machine) override {
    if (stopped()) return -1;
    const int square = bot_.next_click(machine);
    return stopped() ? -1 : square;
  }

 private:
  bool stopped() const {
    std::lock_guard lock(s_->mu);
    return s_->stop;
  }
  std::shared_ptr<GameDriver::Shared> s_;
  BotInput bot_;
};

std::unique_ptr<SeatInput> make_input(const SeatKind& kind,
                                      const std::shared_ptr<GameDriver::Shared>& s,
                                      std::uint64_t seed, const Position& start,
                                      std::chrono::milliseconds delay) {
  if (kind.human) return std::make_unique<WindowInput>(s);
  return std::make_unique<BotSeat>(s, kind.bot, seed, start, delay);
}

void read_chat(const std::shared_ptr<GameDriver::Shared>& s, int my_seat) {
  while (true) {
    {
      std::lock_guard lock(s->mu);
      if (s->stop || !s->chat) return;
    }
    try {
      if (!s->chat->readable(std::chrono::milliseconds(200))) continue;
      const int seat = s->chat->read_int();
      const std::string line = s->chat->read_string();
      if (seat == my_seat) continue;  // the server echoes our own lines; they are shown already
      std::lock_guard lock(s->mu);
      add_chat(s->view, s->seat_display_name(seat, s->view.names) + ": " + wire_text(line));
    } catch (const std::exception&) {
      return;  // the server closes talk connections when the game ends
    }
  }
}

void run_network(const std::shared_ptr<GameDriver::Shared>& s, const NetworkSetup& n) {
  std::unique_ptr<LegacyClient> client;
  if (n.create) {
    std::vector<SeatDetail> seats{{SeatType::kLocal, n.my_name}};
    for (int i = 1; i < n.players; ++i) {
      seats.push_back({SeatType::kNetwork, "Player " + std::to_string(i + 1)});
    }
    client = std::make_unique<LegacyClient>(LegacyClient::create(n.host, n.port, n.game_name, seats));
  } else {
    client = std::make_unique<LegacyClient>(
        LegacyClient::join(n.host, n.port, n.players, n.join_id, n.my_name));
  }
  {
    std::lock_guard lock(s->mu);
    s->view.game_id = client->game_id();
    s->view.phase = DriverPhase::kWaiting;
    s->view.missing = n.players - 1;
    ++s->view.version;
  }
  ReadyStatus ready;
  while (true) {
    ready = client->poll_ready();
    {
      std::lock_guard lock(s->mu);
      s->view.missing = ready.missing;
      ++s->view.version;
      if (s->stop) {
        client->quit({client->seat()});
        return;
      }
    }
    if (ready.missing == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  const int me = client->seat();
  const Position start = start_position(n.players);
  {
    std::lock_guard lock(s->mu);
    for (const std::string& name : ready.names) s->view.names.push_back(wire_text(name));
    s->view.clicks.names = ready.names;  // the .blb keeps the wire bytes, as the original's
    s->view.start = start;
    s->view.human.assign(n.players, false);
    s->view.human[me] = n.my_kind.human;
    s->client = client.get();
    try {
      s->chat = client->talk_connection(std::chrono::seconds(10));
    } catch (const std::exception&) {
      s->chat.reset();  // chat is a comfort: the game goes on without it
    }
    if (s->chat) std::thread([s, me] { read_chat(s, me); }).detach();
  }
  // A peer may think for as long as it likes: no read timeout from now on.
  client->connection().set_timeout(std::chrono::milliseconds(0));
  auto input = make_input(n.my_kind, s, n.seed + me, start, n.cpu_delay);
  GameOutcome out;
  try {
    out = play_network_game(*client, ready.names, {{me, input.get()}}, s->hooks());
  } catch (const std::exception& e) {
    // The server closed the game (a peer's connection dropped without a word) or the network
    // failed: the game is over, and the window says why.
    std::lock_guard lock(s->mu);
    s->client = nullptr;
    s->view.phase = DriverPhase::kOver;
    s->view.message = std::string(text(s->lang, Text::kConnectionLost)) + " (" + e.what() + ")";
    ++s->view.version;
    return;
  }
  {
    std::lock_guard lock(s->mu);
    s->client = nullptr;
  }
  s->finish(out);
}

}  // namespace

std::string wire_text(std::string_view text) {
  return valid_utf8(text) ? std::string(text) : latin1_to_utf8(text);
}

std::unique_ptr<GameDriver> GameDriver::local(const LocalSetup& setup) {
  auto s = std::make_shared<Shared>();
  s->lang = setup.lang;
  const Position start = start_position(setup.players);
  s->view.names = setup.names;
  s->view.clicks.names = setup.names;
  s->view.start = start;
  s->view.phase = DriverPhase::kPlaying;
  for (int i = 0; i < setup.players; ++i) s->view.human.push_back(setup.seats.at(i).human);
  std::thread([s, setup, start] {
    std::vector<std::unique_ptr<SeatInput>> owned;
    std::vector<SeatInput*> inputs;
    for (int i = 0; i < setup.players; ++i) {
      owned.push_back(make_input(setup.seats[i], s, setup.seed + i, start, setup.cpu_delay));
      inputs.push_back(owned.back().get());
    }
    // Local games pass a stuck player (Plateau's deviation, specs/biloba.md §3.4), as the
    // terminal game does.
    const GameOutcome out = play_local_game(start, setup.names, inputs, true, s->hooks());
    s->finish(out);
  }).detach();
  return std::unique_ptr<GameDriver>(new GameDriver(s));
}

std::unique_ptr<GameDriver> GameDriver::network(const NetworkSetup& setup) {
  auto s = std::make_shared<Shared>();
  s->lang = setup.lang;
  s->view.phase = DriverPhase::kConnecting;
  s->view.start = start_position(setup.players);
  std::thread([s, setup] {
    try {
      run_network(s, setup);
    } catch (const std::exception& e) {
      {
        std::lock_guard lock(s->mu);
        s->client = nullptr;
      }
      s->set_phase(DriverPhase::kFailed, e.what());
    }
  }).detach();
  return std::unique_ptr<GameDriver>(new GameDriver(s));
}

std::unique_ptr<GameDriver> GameDriver::replay(const BlbGame& game,
                                               std::chrono::milliseconds delay, Lang lang) {
  auto s = std::make_shared<Shared>();
  s->lang = lang;
  const int players = static_cast<int>(game.names.size());
  s->view.names = game.names;
  s->view.clicks = game;
  s->view.start = start_position(players);
  s->view.human.assign(players, false);
  s->view.phase = DriverPhase::kPlaying;
  s->view.machine.emplace(s->view.start, false);
  std::thread([s, game, delay] {
    GameHooks hooks;
    hooks.on_click = [s](const ClickMachine& m, int, int, ClickEffect) { s->publish(m); };
    const GameOutcome out = replay_game(game, delay, hooks);
    s->finish(out);
  }).detach();
  return std::unique_ptr<GameDriver>(new GameDriver(s));
}

GameDriver::~GameDriver() {
  std::lock_guard lock(shared_->mu);
  shared_->stop = true;
  // Leaving a network game says so ('q'), as the original does, so that the others see
  // "<name> leaves"; the closed socket also ends a read from a peer in progress.
  if (shared_->client) shared_->client->quit({shared_->client->seat()});
  if (shared_->chat) shared_->chat->close();
  shared_->cv.notify_all();
}

DriverView GameDriver::view() const {
  std::lock_guard lock(shared_->mu);
  return shared_->view;
}

std::uint64_t GameDriver::version() const {
  std::lock_guard lock(shared_->mu);
  return shared_->view.version;
}

bool GameDriver::click(int square) {
  std::lock_guard lock(shared_->mu);
  const auto& v = shared_->view;
  if (v.phase != DriverPhase::kPlaying || !v.machine || v.machine->over()) return false;
  const int seat = v.machine->asked();
  if (seat < 0 || seat >= static_cast<int>(v.human.size()) || !v.human[seat]) return false;
  shared_->clicks.emplace_back(v.machine->turns().size(), square);
  shared_->cv.notify_all();
  return true;
}

void GameDriver::say(const std::string& line) {
  if (line.empty()) return;
  const std::string shown(utf8_prefix(line, kMaxStringChars));
  {
    std::lock_guard lock(shared_->mu);
    if (!shared_->chat) return;
  }
  try {
    std::lock_guard write(shared_->chat_write);
    shared_->chat->send_string(outbound_text(shown, kMaxStringChars));
  } catch (const std::exception&) {
    return;
  }
  std::lock_guard lock(shared_->mu);
  const auto& v = shared_->view;
  int me = 0;
  if (shared_->client) me = shared_->client->seat();
  add_chat(shared_->view, shared_->seat_display_name(me, v.names) + ": " + shown);
}

}  // namespace plateau::gui
