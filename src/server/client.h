#pragma once
// A connected client as the lobby and tables see it, whatever its transport.
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/event.h"

namespace plateau::server {

class Table;

class Client : public std::enable_shared_from_this<Client> {
 public:
  virtual ~Client() = default;
  // Queues `event` for the client. Thread-safe. `reply` marks the answer to the command the
  // client is running (WebSocket echoes the command's id on it).
  virtual void send(const Event& event, bool reply) = 0;
  // The same for an event shared among recipients: a transport that can reuses its bytes
  // (RenderedEvent) instead of rendering it again. By default, send(event->event(), reply).
  virtual void send_shared(std::shared_ptr<const RenderedEvent> event, bool reply) {
    send(event->event(), reply);
  }
  // Replays `events` (already told, in seq order; `resync`) to the client, never as a reply.
  // A transport with an output bound paces them (session.h): they reach its output queue as it
  // drains, and whatever is sent after them waits behind them. By default, send_shared() each.
  virtual void send_replayed(std::vector<std::shared_ptr<const RenderedEvent>> events) {
    for (auto& e : events) send_shared(std::move(e), false);
  }
  // True for the client that runs one inbound mail (mail_session.h): it is no live connection,
  // and a board it challenges is a mail board (docs/MAIL.md).
  virtual bool by_mail() const { return false; }
  // Closes the connection after the queued output. Thread-safe.
  virtual void close() = 0;
  // "text 127.0.0.1:40312" for logs.
  virtual std::string describe() const = 0;
  // The client's IP address, the key of the per-address login back-off: by default the
  // ADDRESS of describe()'s "KIND ADDRESS:PORT" (the whole text if it has no such form).
  virtual std::string address() const {
    const std::string d = describe();
    const auto space = d.find(' ');
    const auto colon = d.rfind(':');
    if (space == std::string::npos || colon == std::string::npos || colon <= space + 1) return d;
    return d.substr(space + 1, colon - space - 1);
  }
  // Runs `fn` on the client's strand, after what is already queued there (the lobby finishes a
  // login there: the identity below is written only on the strand). By default at once, for a
  // client without a strand.
  virtual void on_strand(std::function<void()> fn) { fn(); }

  // Identity and position; read and written only on the client's strand (while the lobby
  // handles this client's command, or by on_strand()), never from a table's strand or a
  // worker. Others learn a user's name from the lobby's online list.
  std::string user;  // "" until login
  bool guest = false;
  std::string token_selector;  // the resume token this connection logged in with or was given
  bool gone = false;  // the connection has ended (Lobby::disconnected): never log it in again
  std::weak_ptr<Table> current;  // the table of /join, /say, ... without a board number

  // The tables this connection follows (Table::add_watcher notes them, on the table's strand),
  // so that a closed connection leaves their spectator lists at once. Thread-safe.
  void note_watching(const std::shared_ptr<Table>& table) {
    std::lock_guard lock(watched_mutex_);
    for (const auto& w : watched_) {
      if (w.lock() == table) return;
    }
    watched_.push_back(table);
  }
  // The tables noted by note_watching() that still exist (some may no longer be followed).
  std::vector<std::shared_ptr<Table>> watched_tables() const {
    std::lock_guard lock(watched_mutex_);
    std::vector<std::shared_ptr<Table>> out;
    for (const auto& w : watched_) {
      if (auto t = w.lock()) out.push_back(std::move(t));
    }
    return out;
  }

 private:
  mutable std::mutex watched_mutex_;
  std::vector<std::weak_ptr<Table>> watched_;
};

}  // namespace plateau::server
