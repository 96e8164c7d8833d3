#pragma once
// The table engine's typed domain events (issue 13, item 1): what a table tells everyone at it,
// one struct per kind, in a std::variant, with its per-table seq. The engine fills them with
// facts (names, seats, plies, positions, clocks); it builds no JSON and no sentence. The
// renderers (render.h: table_event_message, then render_text / render_json) turn one into bytes
// once per transport family, shared through RenderedEvent (event.h).
//
// Board pages travel as PageView (page_view.h: the position and its surroundings), rendered by
// the text renderer. One fact is still composed by the engine as text because it needs the
// game's state and its negotiation: the status line ("It is bob's turn."); it travels as data
// (BoardView::status_line, ...) and the renderers print it as it is.
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "server/page_view.h"
#include "server/seat_owner.h"

namespace plateau::server {

enum class TableStatus { kSetup, kPlaying, kOver, kDeclined };
// "setup", "playing", "over", "declined" (wire and snapshot word). Never throws.
const char* status_name(TableStatus status);

enum class RequestKind { kDraw, kUndo };
// "draw", "undo": the word in events and in the snapshot. Never throws.
constexpr const char* request_word(RequestKind kind) {
  return kind == RequestKind::kDraw ? "draw" : "undo";
}

// One seat as a table event shows it.
struct SeatView {
  int seat = 0;       // 1-based table seat
  std::string label;  // the game's seat label for it
  SeatKind kind = SeatKind::kFree;
  std::string name;
};

// One game seat's clock: time left now, and whether it runs.
struct ClockView {
  std::string label;
  std::string user;
  std::int64_t left_ms = 0;
  bool running = false;
};

// The clocks an event carries: none (no field), a null (a clock without banks yet), or a list.
struct ClocksView {
  enum class Show { kAbsent, kNull, kList } show = Show::kAbsent;
  std::vector<ClockView> list;
};

// A table as its "table" event shows it (seats, options, flags, spectators).
struct TableView {
  std::string game;
  int board = 0;
  TableStatus status = TableStatus::kSetup;
  std::vector<SeatView> seats;
  std::string options;
  std::string clock;
  bool rated = false;
  int ply = 0;
  std::map<std::string, std::string> flags;
  std::vector<std::string> spectators;
  std::string record;  // the record path of an invisible table; "" otherwise
  // The table's last event seq when the view was made (Table::seq_; Tx::reply adds the events
  // its action told before): shown only in the replies to the caller (TableShown, BoardShown),
  // never in a table event.
  std::int64_t last_seq = 0;
};

// A table's board as its "board" event shows it. Before the game starts (no position), it is
// shown as the table (`setup`) with the one-line page "TITLE: STATUS LINE".
struct BoardView {
  bool setup = false;  // no game yet: `table` is what is shown
  TableView table;     // setup only
  std::string title;   // setup only: "BohnDuell Board 101"
  std::string game;
  int board = 0;
  TableStatus status = TableStatus::kSetup;
  int ply = 0;
  std::string position;  // State::serialize()
  std::string status_line;
  std::vector<std::string> spectators;
  std::string record;  // as TableView::record
  ClocksView clocks;
  std::string next_user;  // who is to move; "" for nobody
  PagePtr page;           // the board page (text transport); null for none
  // As TableView::last_seq.
  std::int64_t last_seq = 0;
};

enum class TableEventKind {
  kCreated,          // a board was challenged into existence
  kSeatChanged,      // someone sat down, came back, stood up or left a running game
  kOptionsSet,       // /option
  kReset,            // /reset
  kSpectators,       // someone came to watch or stopped watching
  kGameStarted,      // /start
  kMovePlayed,       // a move (typed, queued or a CPU's)
  kMoveUndone,       // an undo request was accepted
  kChat,             // /say, or the server's own line
  kRequestMade,      // a draw offer or undo request
  kRequestAnswered,  // an answer that does not end the request's business
  kGameEnded,        // a result, or no result (declined)
  kCpuForfeit,       // a CPU seat cannot play and forfeits
};

struct GameCreated {
  TableView table;
  std::string title;  // "Phutball Board 101"
  PagePtr page;
};

struct SeatChanged {
  enum class What {
    kTaken,  // "WHO takes seat N."
    kBack,   // "WHO is back at seat N."
    kLeft,   // "WHO leaves seat N."
    kAway,   // "WHO has left; seat N stays reserved (/join N to return)."
  } what = What::kTaken;
  std::string who;  // a user, or "cpu:LEVEL"
  int seat = 0;     // 1-based
  TableView table;
};

struct OptionsSet {
  std::string user;
  std::vector<std::string> settings;  // "name=value" as set
  TableView table;
};

struct TableReset {
  std::string user;
  TableView table;
};

struct SpectatorsChanged {
  enum class What { kCame, kLeft, kDisconnected } what = What::kCame;
  std::string user;
  std::string game;
  int board = 0;
  std::vector<std::string> spectators;  // after the change
};

struct GameStarted {
  BoardView view;
  std::vector<std::string> players;  // by game seat
  bool rated = false;
};

struct MovePlayed {
  std::string game;
  int board = 0;
  int ply = 0;
  int seat = 0;  // game seat
  std::string label;
  std::string user;
  std::string move;
  bool automatic = false;
  std::string position;
  TableStatus status = TableStatus::kPlaying;
  int next_seat = -1;  // game seat to move next; -1 when the game is over
  std::string next_user;
  bool clocked = false;  // clock_ms and clocks are shown
  std::vector<std::int64_t> clock_ms;
  ClocksView clocks;
  PagePtr page;  // filled when the whole action is done (Table::finish)
};

struct MoveUndone {
  BoardView view;
};

struct ChatSaid {
  std::string game;
  int board = 0;
  std::string user;  // "server" for the server's own lines
  std::string message;
};

struct RequestMade {
  std::string game;
  int board = 0;
  RequestKind kind = RequestKind::kDraw;
  std::string by;
  std::string status_line;
};

struct RequestAnswered {
  std::string game;
  int board = 0;
  RequestKind kind = RequestKind::kDraw;
  bool accept = false;
  std::string by;           // who answered
  std::string status_line;  // after an accept: who is still awaited
};

struct GameEnded {
  BoardView view;
  bool decided = true;  // false: ended without a result (declined): no result, no returns
  std::string result;   // "1-0", ...; "" when not decided
  std::string reason;
  std::vector<double> returns;  // by game seat, when decided
  std::vector<std::string> ratings;
};

struct CpuForfeit {
  std::string who;
  std::string why;
};

using TableEventBody = std::variant<GameCreated, SeatChanged, OptionsSet, TableReset,
                                    SpectatorsChanged, GameStarted, MovePlayed, MoveUndone,
                                    ChatSaid, RequestMade, RequestAnswered, GameEnded, CpuForfeit>;

// One table event: its per-table seq (1, 2, 3, ... once committed; 0 before) and what happened.
struct TableEvent {
  std::int64_t seq = 0;
  TableEventBody body;
};

// The kind of `body` (its variant index as an enumeration). Never throws.
inline TableEventKind kind_of(const TableEventBody& body) {
  return static_cast<TableEventKind>(body.index());
}

// The answers a table gives only to the caller that show the table or its board with a line of
// text (/table, /info, /watch, show): not table events (no seq), but typed the same way. Their
// JSON carries "last_seq" (the view's last_seq): the state shown is the one after that event,
// and every table event numbered above it reaches the caller after this answer.
struct TableShown {
  TableView table;
  std::string text;
};
struct BoardShown {
  BoardView view;
  std::string text;
};
// `show BOARD#n`: the board as it stood after ply n.
struct PlyShown {
  std::string game;
  int board = 0;
  int ply = 0;
  std::string position;
  PagePtr page;
};

}  // namespace plateau::server
