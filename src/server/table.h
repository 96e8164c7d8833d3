#pragma once
// A table: one game with its seats, watchers, chat, clock, queued moves and pending requests.
// Both BSW-style tables (/open, /join, /start) and pbmserv boards (challenge) are tables; a board
// simply starts seated and playing. Every table runs on its own strand: its commands are
// handled one at a time, and a command that changes anything is written to the store (group
// commit) before anyone hears of it; commands arriving meanwhile wait their turn.
//
// The table never applies a rule itself: moves go through State::parse_move (its RuleError is
// relayed), turns through State::current_seat, results through State::returns.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ai/bot.h"
#include "core/game.h"
#include "server/asio.h"
#include "server/client.h"
#include "server/command.h"
#include "server/game_clock.h"
#include "server/page_view.h"
#include "server/seat_owner.h"
#include "server/table_access.h"
#include "server/table_event.h"
#include "server/table_events.h"
#include "server/table_services.h"
#include "server/table_types.h"
#include "store/store.h"

namespace plateau::server {

class Table : public std::enable_shared_from_this<Table> {
 public:
  using Done = std::function<void()>;

  // A new table of `game` (already validated), numbered `number`, not yet stored: call
  // create() to store it and tell `caller`. `seats` pre-seats a pbmserv board, which starts
  // playing at once; empty for a BSW table in set-up.
  Table(TableServices& services, std::int64_t id, std::shared_ptr<const Game> game, int number,
        std::string creator, std::vector<SeatOwner> seats, ClockSettings clock,
        std::int64_t now_ms);
  // A stored table, with its moves and chat, replayed through the rules, and its last events
  // (for resync). Throws std::runtime_error naming the table if a stored move is no longer
  // legal or its snapshot or an event cannot be read.
  Table(TableServices& services, const store::TableRow& row,
        const std::vector<store::MoveRow>& moves, const std::vector<store::ChatRow>& chat,
        const std::vector<store::EventRow>& events = {});

  std::int64_t id() const { return id_; }
  // Who opened the table (or issued the challenge); fixed at construction, so thread-safe.
  const std::string& creator() const { return creator_; }
  const std::string& game_name() const { return game_name_; }
  int number() const { return number_; }

  // Stores the new table, then tells `caller` (board number / table event) and, for a board,
  // every player ("New <Game> Board <n>").
  void create(Caller caller, Done done);
  // External tables (table_external.cpp): a game played elsewhere mirrored live. Thread-safe;
  // run on the strand in call order; `done` (may be null) runs once durable.
  // Instead of create() on a new table with filled seats ("legacy", "cpu"): stores it, playing,
  // unrated, moved only by external_move (no user sits in it, its CPU seats never think here).
  // It ends with no result and `orphan_reason` if the server restarts before end_external().
  // `on_chat(user, text)` hears each line a user says at the table once it is stored.
  using ChatListener = std::function<void(const std::string& user, const std::string& text)>;
  void open_external(std::string orphan_reason, ChatListener on_chat, Done done);
  // One complete turn (canonical notation) of the seat to move; one the rules refuse is logged.
  void external_move(std::string move, Done done);
  // A line said at the table by `name`, a player of the external game.
  void external_say(std::string name, std::string text, Done done);
  // Unless the rules ended it, the table ends with no result and `reason`.
  void end_external(std::string reason, Done done);
  // Handles a table or board command of `caller` on the strand; `done` runs after every reply.
  void handle(Caller caller, Command command, Done done);
  // On the strand: drops the closed connection `client` from the watchers and, if a spectator
  // left the list with it, tells everyone at the table (a `spectators` event).
  void watcher_closed(std::shared_ptr<Client> client);
  // Re-arms clocks and CPU players after a restart. `downtime_ms` (> 0) is how long the server
  // was down: a running clock is not charged for it (the turn's start moves forward by that
  // much, durably) and the table's chat says so ("Server was down for 25 s; clocks were
  // stopped.").
  void resume(std::int64_t downtime_ms = 0);
  // Correspondence time (table_correspondence.cpp; correspondence_clock.h), on the strand:
  // the player to move gets the nag once its nag time has passed (a server line at the table
  // and a mail, in one transaction), and forfeits at its forfeit time. Called by the lobby's
  // correspondence tick; does nothing for a table without correspondence time.
  void check_correspondence();
  // Several nodes (table_fence.cpp): writes the table's row again, fenced, so that a table
  // another node took over is dropped now (drop_fenced) rather than at its next move. On the
  // strand; nothing for a table not stored yet.
  void recheck_owner();
  // Several nodes (table_follow.cpp): on the strand, `fn(seated, watching, last_seq)`: whether
  // `user` holds a seat, whether `client` watches, and the last table event's seq. For the
  // answer of a command forwarded from another node (lobby_forward.cpp).
  void follow_state(std::shared_ptr<Client> client, std::string user,
                    std::function<void(bool seated, bool watching, std::int64_t last_seq)> fn);
  // Cancels timers (server shutdown).
  void stop();
  // The game record (core/record.h) on the strand, passed to `reply`.
  void fetch_record(std::function<void(std::string)> reply);
  // `analyse` (table_analyse.cpp; issue 17 item 7): on the strand, the position `c` names for
  // `caller` (c.ply_check: after that ply, else the current one) with `c.args` (0 or 1 word)
  // checked as a level of the game, passed to `reply`; or `reply` gets the error (a table the
  // caller may not reach, one not started, a ply out of range, a finished position, a bad
  // level). Only a copy of the state leaves the strand: the search runs elsewhere.
  struct AnalysisPosition {
    std::shared_ptr<const State> state;
    int ply = 0;
    std::string level;  // canonical (analysis.h analysis_level)
    std::string error;  // "" when `state` is set
  };
  void analysis_position(Caller caller, Command c, std::function<void(AnalysisPosition)> reply);
  // Thread-safe listing data.
  TableSummary summary() const;
  // On the strand (table_discard.cpp): if the table is still in set-up and no user other than
  // `owner` holds a seat, deletes it from the store, tells whoever is there, and refuses every
  // later command as if it did not exist; then `done(true)` once the deletion is durable.
  // Otherwise changes nothing and calls `done(false)`. For the tables of a guest who left.
  void discard_if_unused(const std::string& owner, std::function<void(bool)> done);

 private:
  struct Played {
    Move move;
    std::string text;  // canonical notation, or "Resign"/"Forfeit" as a page entry only
    int seat = 0;
    bool automatic = false;
    std::int64_t at_ms = 0;
  };
  struct Request {  // a pending draw offer or undo request
    RequestKind kind = RequestKind::kDraw;
    int by = 0;              // table seat asking
    std::set<int> accepted;  // table seats that agreed (the asker included)
  };
  struct Delivery {
    // kOthers: all but the caller; kReplay: `replay` to the caller (Client::send_replayed).
    enum class To { kCaller, kAll, kOthers, kUser, kReplay } to = To::kAll;
    std::string user;
    Event event;  // a message that is not a table event (ok, error, ...)
    // The event as sent, shared by every recipient (finish() makes it), or an event already
    // sent once (resync, a repeated move's acknowledgement), or a reply rendered at once.
    std::shared_ptr<const RenderedEvent> shared;
    bool as_reply = true;  // kCaller: the answer to the command (false: a replayed event)
    // A move event: finish() puts in the board page as it stands after the whole action.
    bool page_at_end = false;
    std::vector<std::shared_ptr<const RenderedEvent>> replay;  // kReplay: events already told
    std::optional<TableEventBody> typed;  // a table event: finish() numbers and renders it
  };
  // What one action produces: writes to make durable, then events to deliver.
  struct Tx {
    Caller caller;
    store::Batch batch;
    bool table_changed = false;
    std::vector<Delivery> out;
    void reply(Event e) { push(Delivery::To::kCaller, {}, std::move(e)); }
    // The table or its board shown to the caller only, with a line of text. Its last_seq also
    // counts the table events told before it in this action (finish() numbers them; they go
    // out first, and the view shows the state after them).
    void reply(TableShown shown) {
      shown.table.last_seq += told();
      resend(std::make_shared<const RenderedEvent>(shown), true);
    }
    void reply(BoardShown shown) {
      shown.view.table.last_seq = shown.view.last_seq += told();
      resend(std::make_shared<const RenderedEvent>(shown), true);
    }
    std::int64_t told() const;  // the table events pushed so far (table_tx.cpp)
    void reply(const PlyShown& shown) {
      resend(std::make_shared<const RenderedEvent>(shown), true);
    }
    // A message (not a table event) to everyone at the table.
    void all(Event e) { push(Delivery::To::kAll, {}, std::move(e)); }
    // A table event: everyone at the table hears it, numbered and stored with the action.
    void all(TableEventBody e) { push(Delivery::To::kAll, {}, {}).typed = std::move(e); }
    // A move: its page is the board as it stands once the whole action is done.
    void all_with_final_page(MovePlayed e) {
      Delivery& d = push(Delivery::To::kAll, {}, {});
      d.typed = std::move(e);
      d.page_at_end = true;
    }
    void others(Event e) { push(Delivery::To::kOthers, {}, std::move(e)); }
    void user(const std::string& name, Event e) { push(Delivery::To::kUser, name, std::move(e)); }
    // Sends an event already told (its seq kept) to the caller again, as the answer to the
    // command (`as_reply`) or as a replayed table event.
    void resend(std::shared_ptr<const RenderedEvent> e, bool as_reply) {
      Delivery& d = push(Delivery::To::kCaller, {}, {});
      d.shared = std::move(e);
      d.as_reply = as_reply;
    }
    // Replays `events` (already told, in seq order) to the caller, paced by its connection.
    void replay(std::vector<std::shared_ptr<const RenderedEvent>> events) {
      Delivery& d = push(Delivery::To::kReplay, {}, {});
      d.as_reply = false;
      d.replay = std::move(events);
    }
    Delivery& push(Delivery::To to, std::string user, Event e) {
      Delivery& d = out.emplace_back();
      d.to = to;
      d.user = std::move(user);
      d.event = std::move(e);
      return d;
    }
    // Filled by finish(): the table row written (empty if unchanged) and whether a move was
    // played, for the commit's bookkeeping and its error message.
    std::string data;
    bool moved = false;
    // The table events of this action (seq assigned by finish()), for the log once committed.
    std::vector<std::shared_ptr<const RenderedEvent>> logged;
    // In-memory changes outside the table to undo if the batch fails (Batch::on_rollback).
    std::vector<std::function<void()>> undo;
    // Run on the strand once the batch is durable, after the events are delivered.
    std::vector<std::function<void()>> after_commit;
    // The action is the correspondence nag of this user (TableNotice::nag_user).
    std::string nag_user;
  };
  static constexpr std::size_t kChatKept = 50;  // chat lines kept in memory (and shown)
  // Plays the turns of a seat that resigned a game of 3+ seats: a fast bot, the seat no longer
  // competes.
  static constexpr const char* kResignedBot = "greedy";
  using Action = std::function<void(Tx&)>;
  struct Job {
    Caller caller;
    Action action;
    Done done;
  };

  // Strand plumbing (table_tx.cpp). Containment: an exception anywhere in an action, its
  // rendering, its delivery or its store callback is caught there; the table goes back to its
  // last committed state (roll_back) and reports the error, and the server goes on.
  void post(Caller caller, Action action, Done done);
  void run(Job job);
  void pump();
  void execute(Job job);
  void finish(Tx tx, Done done);
  // Adds the mail about tx's table events to its batch (TableServices::mailer; table_tx.cpp).
  void mail_about(Tx& tx);
  // On the strand, once the store has written (error null) or refused the batch of `tx`.
  void committed(Tx& tx, Done done, std::exception_ptr error);
  void deliver(Tx& tx);
  // Makes `d.shared` (the message as sent) if it is not made yet: a table event without a seq
  // (a deleted table's) or a plain message.
  static void share(Delivery& d);
  void after_change();
  // Runs `undo` (the in-memory changes made outside the table along with the failed batch, such
  // as ratings) in reverse, then puts every durable member back to the last committed state
  // (committed_). A table that was never stored is marked lost_ and leaves the lobby.
  void roll_back(std::vector<std::function<void()>>& undo);
  // A Tx that tells `caller` "error: <message>" and everyone else at the table that the table
  // is back at its last saved state.
  Tx failure(const Caller& caller, const std::string& message) const;
  // A batch of `tx` was fenced (another node serves the table now): tells the caller and
  // everyone at the table fenced_message(), undoes tx's changes outside the table, stops the
  // table's timers and leaves the directory (table_tx.cpp).
  void drop_fenced(Tx& tx, const std::exception_ptr& error);
  // "GAME N is served by another node now: connect again and resync".
  std::string fenced_message() const;
  // After a successful commit of `tx`: committed_ follows the memory.
  void note_committed(const Tx& tx);
  // Resets the durable members, then loads them from a table row's data and its moves and chat
  // (the replay constructor and roll_back).
  void load_durable(const std::string& data, const std::vector<Played>& moves,
                    const std::vector<store::ChatRow>& chat);

  // Commands.
  // Checks that the caller may reach the table (table_access.h), runs `c`, then drops the
  // watchers who may no longer reach it.
  void on_command(Tx& tx, const Command& c);
  void run_command(Tx& tx, const Command& c);
  void cmd_invite(Tx& tx, const Command& c);
  void cmd_join(Tx& tx, const Command& c);
  void cmd_leave(Tx& tx);
  void cmd_option(Tx& tx, const Command& c);
  void cmd_start(Tx& tx, bool rated);
  void cmd_watch(Tx& tx);
  // Tells everyone at the table that the caller, a logged-in user without a seat, came to watch.
  void announce_spectator(Tx& tx);
  void cmd_say(Tx& tx, const std::string& text);
  void cmd_reset(Tx& tx);
  void cmd_move(Tx& tx, const Command& c);
  void cmd_queue(Tx& tx, const Command& c);
  void cmd_resign(Tx& tx);
  // A resignation in a game of 3+ seats (table_resign.cpp): at once, whoever is to move. The
  // seat leaves the contest and the others play on (its turns are played by the computer);
  // when one contender or none is left, the game ends (reason "resign").
  void resign_from_many(Tx& tx, int table_seat);
  // Game seats still contending: on the board (State::seat_in_play) and not resigned.
  std::vector<int> contenders() const;
  // Once seats have resigned, the contest is over as soon as one contender or none is left
  // (the computer playing a resigned seat may eliminate the others): ends the game with reason
  // "resign" (the last contender wins; with none, the seats that did not resign share) and
  // returns true; false while two or more contend.
  bool end_if_contest_over(Tx& tx);
  // Throws CommandError when `table_seat` has no turn to play any more: it resigned (the
  // computer plays its pawns) or its side is out of the game (State::seat_in_play).
  void require_turns_left(int table_seat) const;
  // False when require_turns_left(table_seat) would throw.
  bool has_turns_left(int table_seat) const;
  // True when the computer plays the turns of `table_seat`: a CPU seat or a resigned seat.
  bool computer_plays(int table_seat) const;
  // The rules' `returns` (by game seat) with the resigned seats' share given to the others,
  // in proportion to what they have (equally when they have nothing).
  std::vector<double> without_resigned(std::vector<double> returns) const;
  void cmd_request(Tx& tx, RequestKind kind);
  void cmd_answer(Tx& tx, bool accept);
  void cmd_show(Tx& tx, const Command& c);
  void cmd_steps(Tx& tx, const Command& c);
  // table_preview.cpp: preview BOARD MOVE..., submit BOARD MOVE[#n], confirm BOARD.
  void cmd_preview(Tx& tx, const Command& c);
  void cmd_submit(Tx& tx, const Command& c);
  void cmd_confirm(Tx& tx, const Command& c);
  // table_preview.cpp: subscribe BOARD, unsubscribe BOARD.
  void cmd_subscribe(Tx& tx, bool on);
  // resync BOARD SEQ (table_resync.cpp): the table events after SEQ, then watching.
  void cmd_resync(Tx& tx, const Command& c);
  // `move BOARD MOVE#n` for a ply n already played: true (and the original acknowledgement
  // re-sent to the caller, nothing stored) if the caller's seat made ply n with that move.
  bool repeated_move(Tx& tx, const Command& c);

  // Game flow.
  void play(Tx& tx, const Move& move, int seat, bool automatic);
  void after_move(Tx& tx);
  // Ends the game with `table_seat` losing ("Resign" or "Forfeit" in the move table); before
  // every seat has moved it ends with no result instead (end_without_result).
  void resign_seat(Tx& tx, int table_seat, const std::string& entry,
                   const std::string& reason = "");
  void end_game(Tx& tx, std::vector<double> returns, const std::string& reason);
  // The consent rule (pbmserv's decline, issue 12 item 5): a game decided before every seat
  // has moved, whichever way (`why`: "resign", "time", "cpu failure"), ends with no result and
  // no rating change, status kDeclined, `table_seat` named as the one who ended it.
  void end_without_result(Tx& tx, int table_seat, const std::string& why);

  // Queued moves and resignations (table_queue.cpp). A queued move is kept as typed, "MOVE" or
  // "MOVE#n" (n: the ply it is meant for), in queued_.
  // Plays the queued move of `owner` (the seat to move) if there is one and it still fits:
  // true if it was played; otherwise its owner is told why it was dropped (a ply that is not
  // its #n, or a move illegal now) and false.
  bool play_queued(Tx& tx, const SeatOwner& owner);
  // Drops every queued move and resignation, telling each owner "... is cancelled: `why`."
  void clear_queued(Tx& tx, const std::string& why);
  void undo_last(Tx& tx);
  void rebuild_state();
  void on_cpu_move(Tx& tx, int ply, const Move& move);
  void on_clock(Tx& tx);
  void on_correspondence(Tx& tx);  // table_correspondence.cpp
  void arm_clock();
  void maybe_think();
  void cpu_failed(Tx& tx, int ply, const std::string& why);

  // External tables (table_external.cpp). From resume(): an external table still playing
  // ends with no result and its orphan reason; true if it did.
  bool end_if_orphaned(Tx& tx);
  void relay_chat(Tx& tx, const std::string& text);        // cmd_say's line to the chat listener
  void end_unfinished(Tx& tx, const std::string& reason);  // no result, `reason`

  // Access (table_access.cpp).
  TableAccess access() const;
  // Throws CommandError(unknown_table_error(c)) if the caller may not reach the table.
  void require_reachable(const Tx& tx, const Command& c) const;
  // Removes the watchers of an invisible table who may not reach it (no longer seated, or
  // watching since before it became invisible), so that they hear nothing more of it.
  void drop_unreachable_watchers();
  // "/records/GAME/N?key=KEY": where the players of an invisible table fetch its record.
  std::string record_path() const;

  // Queries.
  int table_seat_of(const std::string& user) const;  // -1 if not seated
  int game_seat_of_table_seat(int table_seat) const;
  int seat_to_move() const;  // table seat, or -1
  std::string owner_name(int table_seat) const;
  std::vector<std::string> players_by_game_seat() const;
  bool is_watching(const std::shared_ptr<Client>& client) const;
  // Adds `client` (logged in as `user`, "" if not) to the watchers; true if it was not one.
  bool add_watcher(const std::shared_ptr<Client>& client, const std::string& user);
  void remove_watcher(const std::shared_ptr<Client>& client);
  // Names of the logged-in watchers who have no seat here, sorted, each once.
  std::vector<std::string> spectators() const;
  // The clocks by game seat for a display; kAbsent without a clock, kNull before it has banks.
  ClocksView clocks_view() const;
  bool everyone_moved() const;
  // The seats of people other than `table_seat` who still have turns (has_turns_left): the
  // ones a draw offer or an undo request waits for.
  std::vector<int> human_seats_except(int table_seat) const;
  std::string label() const;  // "bohnduell 101"
  std::string title() const;  // "BohnDuell Board 101"
  std::string status_line() const;
  // "; nagtime 7 days; forfeittime 21 days" (the ones set), for /info (table_correspondence.cpp).
  std::string correspondence_info() const;
  // The board page headed `heading` ("Summary", "New") of `shown`, the position after ply
  // `shown_ply` (a copy of it is kept in the page).
  PagePtr page(const std::string& heading, const State& shown, int shown_ply) const;
  // The facts of the typed events (table_event.h), as the table stands now (table_view.cpp).
  TableView table_view() const;
  SpectatorsChanged spectators_changed(SpectatorsChanged::What what, const std::string& user) const;
  MovePlayed move_played(const Played& p, int ply) const;
  // The board with its page headed `heading` ("Summary"), or the table before the game.
  BoardView board_view(const std::string& heading) const;
  void require_user(const Tx& tx) const;
  void require_playing() const;
  std::string data_json() const;
  void load_data_json(const std::string& text);
  void refresh_summary();

  TableServices& services_;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  boost::asio::steady_timer timer_;

  // Durable.
  std::int64_t id_;
  std::string game_name_;
  int number_;
  std::int64_t created_ms_;
  std::shared_ptr<const Game> game_;
  std::string creator_;
  bool board_ = false;
  TableStatus status_ = TableStatus::kSetup;
  bool rated_ = false;
  std::vector<SeatOwner> seats_;  // by table seat
  std::vector<int> order_;        // game seat -> table seat
  std::unique_ptr<State> initial_;
  std::unique_ptr<State> state_;
  std::vector<Played> moves_;
  std::vector<PageMove> extra_entries_;  // "Resign"/"Forfeit" after the last move
  std::string result_;                   // "1-0", "0-1", "1/2-1/2", ... once over
  std::string reason_;                   // rules, resign, time, agreement, declined
  std::string declined_by_;
  std::vector<double> returns_;  // by game seat, once over
  std::vector<std::string> rating_lines_;
  std::optional<Request> request_;
  std::map<std::string, std::string> queued_;  // lower-case user -> "MOVE" or "MOVE#n"
  std::set<std::string> queued_resign_;
  // Table seats that resigned a game of 3+ seats (issue 14): out of the contest, their turns
  // are played by the computer (kResignedBot) and their result is 0 whatever the board says.
  std::set<int> resigned_;
  std::map<std::string, std::string> table_flags_;  // invisible, drawseat, host, result
  std::set<std::string> invited_;                   // lower-case names invited with /invite
  // `submit`: the move each player (lower-case name) previewed, and the ply it was for, until
  // `confirm` plays it. In memory only: after a restart, submit again.
  struct Submitted {
    std::string move;
    int ply = 0;
  };
  std::map<std::string, Submitted> submitted_;
  // `subscribe`: accounts that get the board's pages by mail as its players do (stored with the
  // table; at most kMaxSubscribersPerBoard).
  std::set<std::string> subscribers_;
  std::string record_key_;  // secret of the record URL while invisible (table_access.h)
  ClockSettings clock_;
  std::vector<std::int64_t> bank_ms_;  // by game seat
  std::int64_t turn_started_ms_ = 0;
  // The ply count + 1 of the turn whose correspondence nag was sent (0: none), so that one
  // turn is nagged once, also across a restart.
  std::int64_t nagged_ = 0;
  std::int64_t started_ms_ = 0;
  std::int64_t ended_ms_ = 0;
  std::vector<store::ChatRow> chat_;  // recent lines
  std::int64_t seq_ = 0;              // the last table event's seq (0: none yet)
  // Several nodes (docs/CLUSTER.md): the fencing epoch this node serves the table at (its row's
  // when restored or taken over; 1 for a table this node made; 0 alone). Every batch checks it.
  std::int64_t epoch_ = 0;
  // An external table (open_external): the reason it ends with after a restart; "" otherwise.
  std::string external_;

  // The last committed state, for roll_back: the table row's data as stored and the moves and
  // recent chat as they are on disk.
  struct Committed {
    bool stored = false;  // the table row is on disk (with seq_ in its data)
    std::string data;
    std::vector<Played> moves;
    std::vector<store::ChatRow> chat;
  };
  Committed committed_;

  // Runtime only.
  bool lost_ = false;  // its first write failed: it never existed durably and is gone
  // Another node took the table over (a write was fenced, store/fence.h): it is dropped from
  // this node and answers every later command with fenced_message().
  bool fenced_ = false;
  // After a store failure, automatic actions (clock, CPU) wait until then before retrying, so
  // a full disk does not turn an expired clock into a busy loop.
  std::int64_t retry_after_ms_ = 0;
  boost::asio::steady_timer retry_timer_;
  struct Watcher {
    std::weak_ptr<Client> client;
    std::string user;  // the name it was logged in with when it came ("" if not)
  };
  std::vector<Watcher> watchers_;
  EventLog log_;  // the last committed table events (LobbyLimits::events_kept)
  bool busy_ = false;
  std::deque<Job> waiting_;
  bool thinking_ = false;
  bool stopped_ = false;
  bool discarded_ = false;  // deleted by discard_if_unused(): answers as if it did not exist
  std::vector<std::shared_ptr<Bot>> bots_;  // by table seat
  ChatListener chat_listener_;              // an external table's (open_external)
  mutable std::mutex summary_mutex_;
  TableSummary summary_;
};

}  // namespace plateau::server
