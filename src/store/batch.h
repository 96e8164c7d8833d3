#pragma once
// A Batch: writes to apply atomically (all or none), as plain data (DESIGN.md §1, store layer).
//
// A batch is a list of typed operations, one struct per kind, in the order they were added. It
// holds no code and knows no database: a Backend (backend.h) reads the operations and applies
// them. Tests and tools can read them too (ops()).
//
// Adding an operation (e.g. an event row, a token row) is four small edits:
//   1. a struct below, next to the others, saying what it writes and when it fails, with a
//      defaulted operator== (and one on its row type in store_types.h: tests compare ops);
//   2. its name appended to the `Op` variant;
//   3. a Batch method that appends it (the callers' API);
//   4. its SQL in sqlite_backend.cpp and postgres_backend.cpp (each backend's OpWriter gets
//      an operator() for it; the build fails until both have one, since std::visit must cover
//      every alternative).
// Rows read back at start-up also get a Snapshot field (store_types.h), a query in both
// backends' load() and a line in `plateau store copy` (src/cli/store_copy.cpp); a new table gets
// a migration at the end of both lists (migrations.h). For
// example, an event row:
//   struct AddEvent { EventRow row; bool operator==(const AddEvent&) const = default; };
//   using Op = std::variant<..., DeleteTable, AddEvent>;
//   void add_event(const EventRow& row) { ops_.emplace_back(AddEvent{row}); }
//   void operator()(const AddEvent& op) {            // in sqlite_backend.cpp's OpWriter
//     Run q = statement("INSERT INTO table_events(table_id, seq, kind, body) VALUES (?, ?, ?, ?)");
//     q->bind(1, static_cast<int64_t>(op.row.table_id)); ...; q->exec();
//   }
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "store/store_types.h"

namespace plateau::store {

// Inserts or replaces the account (name is the key, case-insensitive).
struct PutAccount {
  AccountRow row;
  bool operator==(const PutAccount&) const = default;
};
// Inserts or replaces the rating of (game, player).
struct PutRating {
  RatingRow row;
  bool operator==(const PutRating&) const = default;
};
// Inserts the table row, or (id already stored) replaces only its `data`: game, number and
// created_ms never change once a table exists.
struct PutTable {
  TableRow row;
  bool operator==(const PutTable&) const = default;
};
// Inserts a move; fails the batch if (table_id, ply) is already stored or the table is not.
struct AddMove {
  MoveRow row;
  bool operator==(const AddMove&) const = default;
};
// Deletes the moves of `table_id` with ply >= `from_ply` (undo). No such move: no change.
struct DeleteMovesFrom {
  std::int64_t table_id = 0;
  int from_ply = 0;
  bool operator==(const DeleteMovesFrom&) const = default;
};
// Appends a chat line; fails the batch if the table is not stored.
struct AddChat {
  ChatRow row;
  bool operator==(const AddChat&) const = default;
};
// Raises counter `name` to `value`; a lower value than the stored one is ignored.
struct PutCounter {
  std::string name;
  std::int64_t value = 0;
  bool operator==(const PutCounter&) const = default;
};
// Inserts a table event; fails the batch if (table_id, seq) is already stored or the table is
// not.
struct AddEvent {
  EventRow row;
  bool operator==(const AddEvent&) const = default;
};
// Deletes the table `table_id` with its moves, chat and events. No such table: no change.
struct DeleteTable {
  std::int64_t table_id = 0;
  bool operator==(const DeleteTable&) const = default;
};
// Inserts or replaces a resume token (the selector is the key).
struct PutToken {
  TokenRow row;
  bool operator==(const PutToken&) const = default;
};
// Deletes the resume token `selector` (logout, expiry). No such token: no change.
struct DeleteToken {
  std::string selector;
  bool operator==(const DeleteToken&) const = default;
};

// Queues a mail in the outbox; fails the batch if its key is already there.
struct AddMail {
  MailRow row;
  bool operator==(const AddMail&) const = default;
};
// Removes a sent mail from the outbox. No such key: no change.
struct DeleteMail {
  std::string key;
  bool operator==(const DeleteMail&) const = default;
};

// Inserts or replaces a vacation ((user, start_ms) is the key).
struct PutVacation {
  VacationRow row;
  bool operator==(const PutVacation&) const = default;
};
// Records an inbound mail as run (inserted or its time replaced).
struct PutMailSeen {
  MailSeenRow row;
  bool operator==(const PutMailSeen&) const = default;
};
// Forgets the inbound mail run before `before_ms` (wall clock, ms since the epoch).
struct PruneMailSeen {
  std::int64_t before_ms = 0;
  bool operator==(const PruneMailSeen&) const = default;
};

// Inserts or replaces a node row (id is the key): `plateau store copy`. A running node
// registers itself on its own connection (cluster/cluster_db.h).
struct PutNode {
  NodeRow row;
  bool operator==(const PutNode&) const = default;
};
// The fencing check of several nodes (issue 16 item 2; docs/CLUSTER.md): inside the batch's
// transaction, reads the table's (owner, epoch) and locks its row until the commit (PostgreSQL:
// SELECT ... FOR UPDATE), so no takeover can commit in between; fails the batch with
// TableFenced (fence.h) unless they are `owner` and `epoch`. A table not stored yet passes (the
// batch's PutTable inserts it). PostgreSQL also announces the batch's table events with
// pg_notify('plateau_events', 'TABLE,FIRST_SEQ,LAST_SEQ,EPOCH') in the same transaction.
struct FenceTable {
  std::int64_t table_id = 0;
  std::string owner;
  std::int64_t epoch = 0;
  bool operator==(const FenceTable&) const = default;
};

// Inserts a new account; fails the batch if its name (any case) is stored already: a
// registration, which must never replace an account another node registered meanwhile.
struct AddAccount {
  AccountRow row;
  bool operator==(const AddAccount&) const = default;
};

// One write. Append new kinds at the end (see the top of this file).
using Op = std::variant<PutAccount, PutRating, PutTable, AddMove, DeleteMovesFrom, AddChat,
                        PutCounter, DeleteTable, AddEvent, PutToken, DeleteToken, AddMail,
                        DeleteMail, PutVacation, PutMailSeen, PruneMailSeen, PutNode, FenceTable,
                        AddAccount>;

class Batch {
 public:
  void put_account(const AccountRow& row) { ops_.emplace_back(PutAccount{row}); }
  // A new account (AddAccount): fails the batch if the name is taken.
  void add_account(const AccountRow& row) { ops_.emplace_back(AddAccount{row}); }
  void put_rating(const RatingRow& row) { ops_.emplace_back(PutRating{row}); }
  // Inserts or replaces the table row (id is the key; see PutTable).
  void put_table(const TableRow& row) { ops_.emplace_back(PutTable{row}); }
  // Inserts a move; fails the batch if (table_id, ply) is already stored.
  void add_move(const MoveRow& row) { ops_.emplace_back(AddMove{row}); }
  // Deletes the moves of `table_id` with ply >= `from_ply` (undo).
  void delete_moves_from(std::int64_t table_id, int from_ply) {
    ops_.emplace_back(DeleteMovesFrom{table_id, from_ply});
  }
  void add_chat(const ChatRow& row) { ops_.emplace_back(AddChat{row}); }
  // Inserts a table event; fails the batch if (table_id, seq) is already stored.
  void add_event(const EventRow& row) { ops_.emplace_back(AddEvent{row}); }
  // Raises counter `name` to `value` (a counter never goes down: a lower value is ignored).
  void put_counter(const std::string& name, std::int64_t value) {
    ops_.emplace_back(PutCounter{name, value});
  }
  // Deletes the table `table_id` with its moves, chat and events (a table nobody will use).
  void delete_table(std::int64_t table_id) { ops_.emplace_back(DeleteTable{table_id}); }
  void put_token(const TokenRow& row) { ops_.emplace_back(PutToken{row}); }
  void delete_token(const std::string& selector) { ops_.emplace_back(DeleteToken{selector}); }
  void add_mail(const MailRow& row) { ops_.emplace_back(AddMail{row}); }
  void delete_mail(const std::string& key) { ops_.emplace_back(DeleteMail{key}); }
  void put_vacation(const VacationRow& row) { ops_.emplace_back(PutVacation{row}); }
  void put_mail_seen(const MailSeenRow& row) { ops_.emplace_back(PutMailSeen{row}); }
  void prune_mail_seen(std::int64_t before_ms) { ops_.emplace_back(PruneMailSeen{before_ms}); }
  void put_node(const NodeRow& row) { ops_.emplace_back(PutNode{row}); }
  // The fencing check of table `table_id` (FenceTable), put FIRST so that a fenced batch stops
  // before any other write.
  void fence(std::int64_t table_id, const std::string& owner, std::int64_t epoch) {
    ops_.insert(ops_.begin(), FenceTable{table_id, owner, epoch});
  }

  // Registers `undo`, which reverts an in-memory change made along with this batch (a rating in
  // the lobby's cache). It is the submitter's, not a write: the store never runs it; the
  // submitter takes them (take_rollbacks) and runs them, in reverse order, if the batch fails.
  void on_rollback(std::function<void()> undo) { rollbacks_.push_back(std::move(undo)); }
  std::vector<std::function<void()>> take_rollbacks() { return std::exchange(rollbacks_, {}); }

  bool empty() const { return ops_.empty(); }
  std::size_t size() const { return ops_.size(); }
  // The writes, in the order they were added (a backend applies them in this order).
  const std::vector<Op>& ops() const { return ops_; }

 private:
  std::vector<Op> ops_;
  std::vector<std::function<void()>> rollbacks_;
};

}  // namespace plateau::store
