#include "store/migrations.h"

namespace plateau::store {

const std::vector<std::string>& migrations() {
  static const std::vector<std::string> kMigrations = {
      // 1: accounts, ratings, tables, moves, chat.
      R"sql(
CREATE TABLE accounts (
  name TEXT PRIMARY KEY COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE TABLE ratings (
  game TEXT NOT NULL,
  player TEXT NOT NULL COLLATE NOCASE,
  rating REAL NOT NULL,
  deviation REAL NOT NULL,
  volatility REAL NOT NULL,
  games INTEGER NOT NULL,
  PRIMARY KEY (game, player)
);
CREATE TABLE tables (
  id INTEGER PRIMARY KEY,
  game TEXT NOT NULL,
  number INTEGER NOT NULL,
  data TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  UNIQUE (game, number)
);
CREATE TABLE moves (
  table_id INTEGER NOT NULL REFERENCES tables(id),
  ply INTEGER NOT NULL,
  move TEXT NOT NULL,
  seat INTEGER NOT NULL,
  automatic INTEGER NOT NULL,
  at_ms INTEGER NOT NULL,
  PRIMARY KEY (table_id, ply)
);
CREATE TABLE chat (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  table_id INTEGER NOT NULL REFERENCES tables(id),
  at_ms INTEGER NOT NULL,
  user TEXT NOT NULL,
  text TEXT NOT NULL
);
CREATE INDEX chat_by_table ON chat(table_id, seq);
)sql",
      // 2: when the server was last alive (a heartbeat, and the time of every commit), so that
      // a restart knows how long it was down and does not charge clocks for it.
      R"sql(
CREATE TABLE server_state (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
)sql",
      // 3: named counters that must never go back, e.g. the guest numbers already handed out
      // (guestN is never issued twice, even after a restart).
      R"sql(
CREATE TABLE counters (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
)sql",
      // 4: the challenges an account accepts (`limit`): -1 all, 0 none, N at most N open boards
      // started by others.
      R"sql(
ALTER TABLE accounts ADD COLUMN challenge_limit INTEGER NOT NULL DEFAULT -1;
)sql",
      // 5: the events of each table (what everyone at it heard), numbered 1, 2, 3, ... per table
      // without gaps, so that a client can resync from the last one it saw. `body` is the
      // server's JSON of the event (the table's event codec).
      R"sql(
CREATE TABLE table_events (
  table_id INTEGER NOT NULL REFERENCES tables(id),
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (table_id, seq)
);
)sql",
      // 6: resume tokens, stored hashed (server/resume_tokens.h): the selector is
      // the key, the secret half is kept only as its BLAKE2b hash.
      R"sql(
CREATE TABLE resume_tokens (
  selector TEXT PRIMARY KEY,
  verifier_hash TEXT NOT NULL,
  user TEXT NOT NULL COLLATE NOCASE,
  guest INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  expires_ms INTEGER NOT NULL
);
)sql",
      // 7: play by e-mail (issue 15): an account's address, and the outbox of mail to send,
      // written in the same transaction as the event it tells of.
      R"sql(
ALTER TABLE accounts ADD COLUMN email TEXT NOT NULL DEFAULT '';
CREATE TABLE mail_outbox (
  key TEXT PRIMARY KEY,
  recipient TEXT NOT NULL,
  message TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
)sql",
      // 8: correspondence play (issue 15, items 4 and 5): which mail an account gets about games
      // it is not connected to (`notify`: every, digest, off), and the vacations that pause a
      // player's correspondence time.
      R"sql(
ALTER TABLE accounts ADD COLUMN notify TEXT NOT NULL DEFAULT 'every';
CREATE TABLE vacations (
  user TEXT NOT NULL,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL,
  PRIMARY KEY (user, start_ms)
);
)sql",
      // 9: the inbound mail already run (issue 15 a): a mail server that lost our 250 delivers
      // the same message again; its Message-ID (per sender) says it was done. Pruned by age.
      R"sql(
CREATE TABLE mail_seen (
  sender TEXT NOT NULL,
  message_id TEXT NOT NULL,
  seen_ms INTEGER NOT NULL,
  PRIMARY KEY (sender, message_id)
);
CREATE INDEX mail_seen_by_age ON mail_seen(seen_ms);
)sql",
      // 10: several nodes on one database (issue 16; docs/CLUSTER.md): the registered nodes,
      // and each table's owner node and fencing epoch. A single server (SQLite) leaves them
      // empty; the columns are here so that `plateau store copy` keeps them both ways.
      R"sql(
CREATE TABLE nodes (
  id TEXT PRIMARY KEY,
  address TEXT NOT NULL,
  node_port INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  seen_at INTEGER NOT NULL
);
ALTER TABLE tables ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
)sql",
      // 11: PostgreSQL's 11 adds the tables that several nodes share while they live
      // (presence, listings, seats: cluster/feed_db.h); one server has nothing to share, so
      // SQLite keeps the version in step with nothing to do.
      "SELECT 1;",
  };
  return kMigrations;
}

}  // namespace plateau::store
