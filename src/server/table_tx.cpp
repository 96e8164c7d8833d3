// The table's strand plumbing: how an action runs, is made durable, is delivered, and how any
// failure on that path is contained to the table (issue 12, item 3).
//
// An action changes the table in memory and fills a Tx (writes + events). Nothing is told to
// anyone until the store has committed the writes. If anything throws on the way (the action,
// the rendering, the table row's JSON) or the store refuses the batch (disk full, a constraint),
// the table goes back to committed_ (the state that is on disk) and answers "error: ...": the
// in-memory state is always either the state before the command or the committed one.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>

#include "core/error.h"
#include "server/board_page.h"
#include "server/fault_hook.h"
#include "server/table.h"
#include "server/table_util.h"
#include "store/fence.h"
#include "store/store_failure.h"

namespace plateau::server {

namespace {

std::atomic<bool> g_fault_hooked{false};

TableFaultHook& fault_hook() {
  static TableFaultHook hook;
  return hook;
}

bool fault_hooked() { return g_fault_hooked.load(std::memory_order_acquire); }

// A Tx's after-commit steps (Tx::after_commit), each contained.
template <typename Tx>
void run_after_commit(Tx& tx, const std::string& label) {
  for (auto& f : tx.after_commit) {
    try {
      f();
    } catch (const std::exception& e) {
      spdlog::error("table {}: an after-commit step failed: {}", label, e.what());
    }
  }
}

std::string what_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

// How long automatic actions (clock, CPU) wait after a failed write before trying again.
constexpr std::int64_t kStoreRetryMs = 1000;

}  // namespace

void set_table_fault_hook(TableFaultHook hook) {
  g_fault_hooked.store(false, std::memory_order_release);
  fault_hook() = std::move(hook);
  g_fault_hooked.store(static_cast<bool>(fault_hook()), std::memory_order_release);
}

void table_fault_point(std::string_view point, const std::string& table) {
  if (fault_hooked()) fault_hook()(point, table);
}

void Table::post(Caller caller, Action action, Done done) {
  boost::asio::post(strand_, [self = shared_from_this(),
                              job = Job{std::move(caller), std::move(action),
                                        std::move(done)}]() mutable { self->run(std::move(job)); });
}

void Table::run(Job job) {
  waiting_.push_back(std::move(job));
  pump();
}

void Table::pump() {
  while (!busy_ && !waiting_.empty()) {
    Job job = std::move(waiting_.front());
    waiting_.pop_front();
    execute(std::move(job));
  }
}

void Table::execute(Job job) {
  Tx tx;
  tx.caller = job.caller;
  if (fenced_) {
    tx.reply(error_event(fenced_message()));
    finish(std::move(tx), std::move(job.done));
    return;
  }
  if (lost_) {
    tx.reply(error_event(committed_.stored
                             ? label() + " is unavailable until the server restarts (its saved "
                                         "state is intact)"
                             : label() + " could not be saved and no longer exists"));
    finish(std::move(tx), std::move(job.done));
    return;
  }
  try {
    job.action(tx);
    if (fault_hooked()) table_fault_point("action", label());
  } catch (const CommandError& e) {
    // Handlers check before they change anything; one that changed something first is undone.
    if (tx.table_changed || !tx.batch.empty()) {
      auto undo = tx.batch.take_rollbacks();
      roll_back(undo);
    }
    Tx refused;
    refused.caller = job.caller;
    refused.reply(error_event(e.what()));
    tx = std::move(refused);
  } catch (const std::exception& e) {
    spdlog::error("table {}: internal error: {}; back to the last saved state", label(), e.what());
    auto undo = tx.batch.take_rollbacks();
    roll_back(undo);
    tx = failure(job.caller, std::string("internal error (") + e.what() +
                                 "); the table is as it was before the command");
  } catch (...) {
    spdlog::error("table {}: internal error: unknown exception", label());
    auto undo = tx.batch.take_rollbacks();
    roll_back(undo);
    tx = failure(job.caller, "internal error; the table is as it was before the command");
  }
  finish(std::move(tx), std::move(job.done));
}

std::int64_t Table::Tx::told() const {
  return std::count_if(out.begin(), out.end(),
                       [](const Delivery& d) { return d.to == Delivery::To::kAll; });
}

void Table::finish(Tx tx, Done done) {
  try {
    // Move events show the page as it stands after the whole action (queued and automatic
    // replies included); a game-over event right after a move needs no second copy of it.
    bool moved = false;
    PagePtr current;
    for (auto& d : tx.out) {
      if (!d.typed) continue;
      if (auto* m = std::get_if<MovePlayed>(&*d.typed)) {
        tx.moved = true;
        if (d.page_at_end) {
          if (!current) current = page("Summary", *state_, static_cast<int>(moves_.size()));
          m->page = current;
          moved = true;
        }
      } else if (auto* g = std::get_if<GameEnded>(&*d.typed); g && moved) {
        g->view.page.reset();
      }
    }
    // What everyone at the table hears is a table event: numbered, and stored with the change
    // (the snapshot counts it: seq_). A deleted table numbers nothing more. Each event is
    // rendered once (RenderedEvent) and its message is both what is stored and what is sent.
    std::vector<store::EventRow> event_rows;
    for (auto& d : tx.out) {
      if (d.to != Delivery::To::kAll || discarded_) continue;
      if (d.typed) {
        d.shared = std::make_shared<const RenderedEvent>(TableEvent{++seq_, std::move(*d.typed)});
        d.typed.reset();
      } else {
        d.event.seq = ++seq_;
        d.shared = std::make_shared<const RenderedEvent>(std::move(d.event));
      }
      event_rows.push_back(encode_table_event(id_, d.shared->event()));
      tx.table_changed = true;
    }
    if (tx.table_changed) {
      tx.data = data_json();
      tx.batch.put_table(
          {id_, game_name_, number_, tx.data, created_ms_, services_.node_id(), epoch_});
    }
    for (const auto& row : event_rows) tx.batch.add_event(row);
    if (!event_rows.empty()) mail_about(tx);
    for (auto& d : tx.out) {
      if (d.to == Delivery::To::kReplay) continue;
      share(d);
      if (d.shared->event().seq > 0 && d.to == Delivery::To::kAll) tx.logged.push_back(d.shared);
    }
    if (fault_hooked()) table_fault_point("finish", label());
    tx.undo = tx.batch.take_rollbacks();
  } catch (const std::exception& e) {
    spdlog::error(
        "table {}: internal error while finishing a command: {}; back to the last "
        "saved state",
        label(), e.what());
    std::vector<std::function<void()>> undo = std::move(tx.undo);
    for (auto& u : tx.batch.take_rollbacks()) undo.push_back(std::move(u));
    roll_back(undo);
    tx = failure(tx.caller, std::string("internal error (") + e.what() +
                                "); the table is as it was before the command");
  }
  if (tx.batch.empty()) {
    for (auto& e : tx.logged) log_.append(std::move(e));  // none: events always write
    deliver(tx);
    run_after_commit(tx, label());
    if (done) done();
    after_change();
    return;
  }
  busy_ = true;
  store::Batch batch = std::move(tx.batch);
  // Several nodes: the batch commits only while this node still serves the table at its epoch.
  if (!services_.node_id().empty()) batch.fence(id_, services_.node_id(), epoch_);
  auto pending = std::make_shared<Tx>(std::move(tx));
  services_.store().submit(std::move(batch), [self = shared_from_this(), pending,
                                              done = std::move(done)](std::exception_ptr error) {
    boost::asio::post(self->strand_,
                      [self, pending, done, error] { self->committed(*pending, done, error); });
  });
}

void Table::mail_about(Tx& tx) {
  TableMailer* mailer = services_.mailer();
  if (!mailer) return;
  std::vector<const Event*> events;
  for (const auto& d : tx.out) {
    if (d.to == Delivery::To::kAll && d.shared && d.shared->event().seq > 0)
      events.push_back(&d.shared->event());
  }
  TableNotice notice;
  notice.table_id = id_;
  notice.game = game_name_;
  notice.board = number_;
  notice.title = title();
  for (const auto& s : seats_) {
    if (s.kind == SeatKind::kUser) notice.players.push_back(s.name);
  }
  notice.by_mail = clock_.corr.by_mail;
  notice.connected = [this](const std::string& user) { return services_.connected(user); };
  notice.nag_user = tx.nag_user;
  notice.subscribers.assign(subscribers_.begin(), subscribers_.end());
  if (state_) {
    const int next = seat_to_move();
    if (next >= 0) notice.next_user = owner_name(next);
    notice.page = [this] {
      return board_page(page("Summary", *state_, static_cast<int>(moves_.size())));
    };
  } else {
    notice.page = [] { return std::string(); };
  }
  if (auto step = mailer->on_table_events(notice, events, tx.batch)) {
    tx.after_commit.push_back(std::move(step));
  }
}

void Table::committed(Tx& tx, Done done, std::exception_ptr error) {
  busy_ = false;
  bool fenced = false;
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const store::TableFenced&) {
      fenced = true;
    } catch (...) {
    }
  }
  if (fenced) {
    drop_fenced(tx, error);
  } else if (error) {
    // Nothing of this batch is on disk: the memory goes back to what is, and nobody was told
    // anything yet, so nothing acknowledged is lost.
    // The players hear a fixed reason; the log keeps the whole one (store_failure.h says why).
    const std::string why = what_of(error);
    const std::string told = store::reason_for_players(error);
    const std::string message =
        !committed_.stored
            ? "table " + label() + " could not be saved (" + told + "); it was not opened"
        : tx.moved ? "the move could not be saved (" + told + "); it was not played"
                   : "the command could not be saved (" + told + "); nothing changed";
    spdlog::error("table {}: store write failed: {}; back to the last saved state", label(), why);
    roll_back(tx.undo);
    retry_after_ms_ = TableServices::now_ms() + kStoreRetryMs;
    Tx failed = failure(tx.caller, message);
    deliver(failed);
  } else {
    note_committed(tx);
    for (auto& e : tx.logged) log_.append(std::move(e));
    deliver(tx);
    run_after_commit(tx, label());
  }
  try {
    if (done) done();
  } catch (const std::exception& e) {
    spdlog::error("table {}: a command's completion failed: {}", label(), e.what());
  }
  after_change();
  pump();
}

void Table::deliver(Tx& tx) {
  refresh_summary();  // listings and table caps agree with what the players are about to hear
  // A connection that cannot take an event (its rendering throws) misses that event; the
  // others still get it, and the table goes on.
  auto send = [&](const std::shared_ptr<Client>& c, const std::shared_ptr<const RenderedEvent>& e,
                  bool reply) {
    try {
      if (fault_hooked()) table_fault_point("deliver", label());
      c->send_shared(e, reply);
    } catch (const std::exception& x) {
      spdlog::error("table {}: cannot send a {} event to {}: {}", label(), e->event().type,
                    c->describe(), x.what());
    }
  };
  for (auto& d : tx.out) {
    if (d.to != Delivery::To::kReplay) share(d);
  }
  try {
    std::vector<std::shared_ptr<Client>> all;
    bool all_known = false;
    auto everyone = [&]() -> const std::vector<std::shared_ptr<Client>>& {
      if (all_known) return all;
      all_known = true;
      auto add = [&](const std::shared_ptr<Client>& c) {
        if (c && std::find(all.begin(), all.end(), c) == all.end()) all.push_back(c);
      };
      watchers_.erase(std::remove_if(watchers_.begin(), watchers_.end(),
                                     [](const auto& w) { return w.client.expired(); }),
                      watchers_.end());
      for (const auto& w : watchers_) add(w.client.lock());
      for (const auto& s : seats_) {
        if (s.kind == SeatKind::kUser) {
          for (const auto& c : services_.clients_of(s.name)) add(c);
          // The caller counts among its user's connections even when it is none of this
          // node's (a command forwarded from another node: lobby_forward.cpp).
          if (tx.caller.client && table_detail::same_name(tx.caller.user, s.name))
            add(tx.caller.client);
        }
      }
      return all;
    };
    const auto& me = tx.caller.client;
    bool told_caller = false;
    for (auto& d : tx.out) {
      switch (d.to) {
        case Delivery::To::kCaller:
          if (me) send(me, d.shared, d.as_reply);
          if (d.as_reply) told_caller = true;
          break;
        case Delivery::To::kAll:
          for (const auto& c : everyone()) {
            send(c, d.shared, c == me);
            if (c == me) told_caller = true;
          }
          if (d.shared->event().seq == 0)
            services_.tell_followers_elsewhere(id_, d.shared->event(), me);
          break;
        case Delivery::To::kOthers:
          for (const auto& c : everyone()) {
            if (c != me) send(c, d.shared, false);
          }
          if (d.shared->event().seq == 0)
            services_.tell_followers_elsewhere(id_, d.shared->event(), me);
          break;
        case Delivery::To::kReplay:
          if (me) me->send_replayed(std::move(d.replay));
          break;
        case Delivery::To::kUser: {
          auto to = services_.clients_of(d.user);
          // As in everyone(): a forwarded command's caller is one of its user's connections.
          if (me && table_detail::same_name(tx.caller.user, d.user) &&
              std::find(to.begin(), to.end(), me) == to.end()) {
            to.push_back(me);
          }
          for (const auto& c : to) {
            send(c, d.shared, c == me);
            if (c == me) told_caller = true;
          }
          services_.tell_elsewhere(d.user, d.shared->event(), me, tx.caller.user);
          break;
        }
      }
    }
    if (me && !told_caller) send(me, std::make_shared<const RenderedEvent>(ok_event("ok")), true);
  } catch (const std::exception& e) {
    spdlog::error("table {}: delivery failed: {}", label(), e.what());
  }
}

void Table::share(Delivery& d) {
  if (d.shared) return;
  if (d.typed) {
    d.shared = std::make_shared<const RenderedEvent>(TableEvent{0, std::move(*d.typed)});
    d.typed.reset();
  } else {
    d.shared = std::make_shared<const RenderedEvent>(std::move(d.event));
  }
}

void Table::after_change() {
  try {
    refresh_summary();
    if (stopped_ || lost_) return;
    const std::int64_t wait = retry_after_ms_ - TableServices::now_ms();
    if (wait > 0) {
      // The store failed a moment ago: clocks and CPU players try again a little later.
      retry_timer_.expires_after(std::chrono::milliseconds(wait));
      retry_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
        if (!ec) self->after_change();
      });
      return;
    }
    arm_clock();
    maybe_think();
  } catch (const std::exception& e) {
    spdlog::error("table {}: cannot re-arm its clock or CPU player: {}", label(), e.what());
  }
}

Table::Tx Table::failure(const Caller& caller, const std::string& message) const {
  Tx tx;
  tx.caller = caller;
  tx.reply(error_event(message));
  tx.others(error_event(label() + ": " + message));
  return tx;
}

void Table::roll_back(std::vector<std::function<void()>>& undo) {
  for (auto it = undo.rbegin(); it != undo.rend(); ++it) {
    try {
      (*it)();
    } catch (const std::exception& e) {
      spdlog::error("table {}: roll-back step failed: {}", label(), e.what());
    }
  }
  undo.clear();
  if (!committed_.stored) {
    // Its first write never reached the disk: the table never existed durably.
    lost_ = true;
    services_.forget_table(game_name_, number_, this);
    return;
  }
  try {
    load_durable(committed_.data, committed_.moves, committed_.chat);
  } catch (const std::exception& e) {
    spdlog::critical(
        "table {}: cannot go back to its saved state ({}); unavailable until the "
        "server restarts",
        label(), e.what());
    lost_ = true;
  }
}

void Table::note_committed(const Tx& tx) {
  if (!tx.data.empty()) {
    committed_.data = tx.data;
    committed_.stored = true;
  }
  // Moves only change at the end (play, undo, reset): keep the common prefix, copy the rest.
  auto same = [](const Played& a, const Played& b) {
    return a.text == b.text && a.seat == b.seat && a.at_ms == b.at_ms && a.automatic == b.automatic;
  };
  std::size_t i = 0;
  const std::size_t n = std::min(committed_.moves.size(), moves_.size());
  while (i < n && same(committed_.moves[i], moves_[i])) ++i;
  committed_.moves.erase(committed_.moves.begin() + static_cast<std::ptrdiff_t>(i),
                         committed_.moves.end());
  committed_.moves.insert(committed_.moves.end(), moves_.begin() + static_cast<std::ptrdiff_t>(i),
                          moves_.end());
  auto same_chat = [](const store::ChatRow& a, const store::ChatRow& b) {
    return a.at_ms == b.at_ms && a.user == b.user && a.text == b.text;
  };
  if (committed_.chat.size() != chat_.size() ||
      (!chat_.empty() && !same_chat(committed_.chat.back(), chat_.back()))) {
    committed_.chat = chat_;
  }
}

void Table::load_durable(const std::string& data, const std::vector<Played>& moves,
                         const std::vector<store::ChatRow>& chat) {
  load_data_json(data);
  if (!moves.empty() && !state_) throw std::runtime_error("moves stored for a table not started");
  for (const auto& p : moves) state_->apply(p.move);
  moves_ = moves;
  chat_ = chat;
  bots_.assign(seats_.size(), nullptr);
  refresh_summary();
}

}  // namespace plateau::server
