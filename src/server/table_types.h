#pragma once
// Small types of the table's interface (table.h): who sends a command, and what a listing shows
// of a table.
#include <memory>
#include <string>
#include <vector>

#include "server/client.h"
#include "server/seat_owner.h"
#include "server/table_access.h"
#include "server/table_event.h"

namespace plateau::server {

// Who sends a command: the account name and the connection to answer.
struct Caller {
  std::string user;  // "" when not logged in
  bool guest = false;
  std::shared_ptr<Client> client;  // null for the server's own actions
};

// A listing line's worth of a table, readable from any thread.
struct TableSummary {
  std::string game;
  int number = 0;
  bool board = false;
  TableStatus status = TableStatus::kSetup;
  std::vector<SeatOwner> seats;
  int ply = 0;
  std::string options;
  bool invisible = false;
  std::string status_line;  // the page's status line ("Game won by alice.")
  std::vector<std::string> subscribers;  // `subscribe` (mail_outbox.h)
  TableAccess access;  // who may reach it (table_access.h); never shown as such
  std::string next_user;  // the user to move while playing; "" for none (or a CPU seat)
  std::int64_t turn_started_ms = 0;
  bool correspondence = false;  // it has a nag or forfeit time (correspondence_clock.h)
};

}  // namespace plateau::server
