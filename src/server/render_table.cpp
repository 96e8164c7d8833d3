// The renderer of the table engine's typed events (table_event.h): each becomes the message a
// client gets (type, JSON data with its sentence in "text", page), from which render_text and
// render_json (render.cpp) make the bytes of each transport family. The sentences are the ones
// the players always read ("alice takes seat 1.", "bohnduell 101: 3. S1 alice H2").
#include <nlohmann/json.hpp>

#include "core/text.h"
#include "server/board_page.h"
#include "server/render.h"

namespace plateau::server {

using nlohmann::json;

namespace {

static_assert(std::variant_size_v<TableEventBody> ==
                  static_cast<std::size_t>(TableEventKind::kCpuForfeit) + 1,
              "TableEventKind follows the order of TableEventBody's alternatives");

std::string label(const std::string& game, int board) { return game + " " + std::to_string(board); }

json clocks_json(const ClocksView& c) {
  if (c.show != ClocksView::Show::kList) return nullptr;
  json out = json::array();
  for (const auto& k : c.list) {
    out.push_back(
        {{"label", k.label}, {"user", k.user}, {"left_ms", k.left_ms}, {"running", k.running}});
  }
  return out;
}

json table_data(const TableView& t, const std::string& text) {
  json seats = json::array();
  for (const auto& s : t.seats) {
    seats.push_back({{"seat", s.seat},
                     {"label", s.label},
                     {"kind", s.kind == SeatKind::kFree ? "free" : seat_kind_word(s.kind)},
                     {"name", s.name}});
  }
  json data = {{"game", t.game},
               {"board", t.board},
               {"status", status_name(t.status)},
               {"seats", seats},
               {"options", t.options},
               {"clock", t.clock},
               {"rated", t.rated},
               {"ply", t.ply},
               {"flags", t.flags},
               {"spectators", t.spectators},
               {"text", text}};
  if (!t.record.empty()) data["record"] = t.record;
  return data;
}

Event table_message(const TableView& t, const std::string& text) {
  return Event{"table", table_data(t, text), {}};
}

// The "board" message (or, before the game, the "table" one with its one-line page).
Event board_message(const BoardView& b, const std::string& text) {
  if (b.setup) {
    Event e = table_message(b.table, text);
    e.page = b.title + ": " + b.status_line + "\n";
    return e;
  }
  json data = {{"game", b.game},
               {"board", b.board},
               {"status", status_name(b.status)},
               {"ply", b.ply},
               {"text", text},
               {"position", b.position},
               {"status_line", b.status_line},
               {"spectators", b.spectators}};
  if (!b.record.empty()) data["record"] = b.record;
  if (b.clocks.show != ClocksView::Show::kAbsent) data["clocks"] = clocks_json(b.clocks);
  if (!b.next_user.empty()) data["next_user"] = b.next_user;
  return Event{"board", std::move(data), board_page(b.page)};
}

std::string seat_sentence(const SeatChanged& s) {
  const std::string n = std::to_string(s.seat);
  switch (s.what) {
    case SeatChanged::What::kTaken:
      return s.who + " takes seat " + n + ".";
    case SeatChanged::What::kBack:
      return s.who + " is back at seat " + n + ".";
    case SeatChanged::What::kLeft:
      return s.who + " leaves seat " + n + ".";
    case SeatChanged::What::kAway:
      break;
  }
  return s.who + " has left; seat " + n + " stays reserved (/join " + n + " to return).";
}

std::string spectator_sentence(const SpectatorsChanged& s) {
  const std::string where = label(s.game, s.board);
  switch (s.what) {
    case SpectatorsChanged::What::kCame:
      return s.user + " is watching " + where + ".";
    case SpectatorsChanged::What::kLeft:
      return s.user + " stopped watching " + where + ".";
    case SpectatorsChanged::What::kDisconnected:
      break;
  }
  return s.user + " stopped watching " + where + " (disconnected).";
}

const char* request_noun(RequestKind kind) {
  return kind == RequestKind::kDraw ? "draw offer." : "undo request.";
}

struct Renderer {
  Event operator()(const GameCreated& e) const {
    Event out{"challenge", table_data(e.table, ""), board_page(e.page)};
    out.data["title"] = "New " + e.title;
    return out;
  }
  Event operator()(const SeatChanged& e) const { return table_message(e.table, seat_sentence(e)); }
  Event operator()(const OptionsSet& e) const {
    return table_message(e.table, e.user + " sets " + join(e.settings, ", ") + ".");
  }
  Event operator()(const TableReset& e) const {
    return table_message(e.table, e.user + " resets " + label(e.table.game, e.table.board) + ".");
  }
  Event operator()(const SpectatorsChanged& e) const {
    json data = {{"game", e.game},
                 {"board", e.board},
                 {"spectators", e.spectators},
                 {"text", spectator_sentence(e)}};
    return Event{"spectators", std::move(data), {}};
  }
  Event operator()(const GameStarted& e) const {
    Event out = board_message(e.view, "Game " + label(e.view.game, e.view.board) +
                                          " starts: " + join(e.players, " vs ") +
                                          (e.rated ? " (rated)." : " (unrated)."));
    out.type = "start";
    out.data["players"] = e.players;
    out.data["rated"] = e.rated;
    return out;
  }
  Event operator()(const MovePlayed& e) const {
    json data = {{"game", e.game},         {"board", e.board},
                 {"ply", e.ply},           {"seat", e.seat},
                 {"label", e.label},       {"user", e.user},
                 {"move", e.move},         {"auto", e.automatic},
                 {"position", e.position}, {"status", status_name(e.status)}};
    if (e.next_seat >= 0) {
      data["next_seat"] = e.next_seat;
      data["next_user"] = e.next_user;
    }
    if (e.clocked) {
      data["clock_ms"] = e.clock_ms;
      data["clocks"] = clocks_json(e.clocks);
    }
    data["text"] = label(e.game, e.board) + ": " + std::to_string(e.ply) + ". " + e.label + " " +
                   e.user + " " + e.move + (e.automatic ? " (Auto)" : "");
    return Event{"move", std::move(data), board_page(e.page)};
  }
  Event operator()(const MoveUndone& e) const {
    return board_message(e.view,
                         label(e.view.game, e.view.board) + ": the last move was taken back.");
  }
  Event operator()(const ChatSaid& e) const {
    json data = {{"game", e.game},
                 {"board", e.board},
                 {"user", e.user},
                 {"message", e.message},
                 {"text", "[" + label(e.game, e.board) + "] " + e.user + ": " + e.message}};
    return Event{"chat", std::move(data), {}};
  }
  Event operator()(const RequestMade& e) const {
    json data = {{"game", e.game},
                 {"board", e.board},
                 {"kind", request_word(e.kind)},
                 {"by", e.by},
                 {"text", label(e.game, e.board) + ": " + e.status_line}};
    return Event{"request", std::move(data), {}};
  }
  Event operator()(const RequestAnswered& e) const {
    const std::string where = label(e.game, e.board);
    json data = {{"game", e.game},
                 {"board", e.board},
                 {"kind", request_word(e.kind)},
                 {"answer", e.accept ? "accept" : "reject"},
                 {"by", e.by},
                 {"text", e.accept ? where + ": " + e.by + " accepts; " + e.status_line
                                   : where + ": " + e.by + " rejects the " + request_noun(e.kind)}};
    return Event{"request", std::move(data), {}};
  }
  Event operator()(const GameEnded& e) const {
    const std::string where = label(e.view.game, e.view.board);
    Event out = board_message(e.view, e.decided ? where + ": " + e.view.status_line + " (" +
                                                      e.result + ", " + e.reason + ")"
                                                : where + ": " + e.view.status_line);
    out.type = "gameover";
    out.data["result"] = e.result;
    out.data["reason"] = e.reason;
    if (e.decided) out.data["returns"] = e.returns;
    out.data["ratings"] = e.ratings;
    return out;
  }
  Event operator()(const CpuForfeit& e) const {
    return error_event(e.who + " cannot play here (" + e.why + ") and forfeits");
  }
};

}  // namespace

Event table_event_message(const TableEvent& event) {
  Event out = std::visit(Renderer{}, event.body);
  out.seq = event.seq;
  return out;
}

// The replies carry the view's last seq (table_event.h); the table events never do.
Event reply_message(const TableShown& shown) {
  Event out = table_message(shown.table, shown.text);
  out.data["last_seq"] = shown.table.last_seq;
  return out;
}

Event reply_message(const BoardShown& shown) {
  Event out = board_message(shown.view, shown.text);
  out.data["last_seq"] = shown.view.last_seq;
  return out;
}

Event reply_message(const PlyShown& shown) {
  return Event{"board",
               {{"game", shown.game},
                {"board", shown.board},
                {"ply", shown.ply},
                {"position", shown.position},
                {"text", ""}},
               board_page(shown.page)};
}

RenderedEvent::RenderedEvent(const TableEvent& event) : event_(table_event_message(event)) {}
RenderedEvent::RenderedEvent(const TableShown& shown) : event_(reply_message(shown)) {}
RenderedEvent::RenderedEvent(const BoardShown& shown) : event_(reply_message(shown)) {}
RenderedEvent::RenderedEvent(const PlyShown& shown) : event_(reply_message(shown)) {}

}  // namespace plateau::server
