// The PostgreSQL schema: the same versions as SQLite's (migrations.cpp), one entry each, in
// order. Differences that matter, and why:
// - SQLite's COLLATE NOCASE folds ASCII letters only; plateau_nocase() (translate, IMMUTABLE)
//   does exactly that, and a unique index on it makes "alice" and "ALICE" the same key, as
//   SQLite's case-insensitive primary key does (lower() would also fold non-ASCII letters).
// - INTEGER columns that hold ms or ids are BIGINT (SQLite's INTEGER is 64-bit); REAL is
//   DOUBLE PRECISION (PostgreSQL's REAL is 32-bit: a rating would lose digits).
// - chat.seq is an identity column (SQLite's AUTOINCREMENT).
// - 10 adds the nodes and each table's owner and epoch (issue 16, items 2-4): times and epochs
//   are BIGINT; an index finds a node's tables at a takeover.
// - 11 adds what the nodes share that lives only as long as they do (cluster/feed_db.h):
//   presence, listings and seats; SQLite's 11 is empty (one server has nothing to share).
#include "store/migrations.h"

namespace plateau::store {

const std::vector<std::string>& postgres_migrations() {
  static const std::vector<std::string> kMigrations = {
      // 1: accounts, ratings, tables, moves, chat.
      R"sql(
CREATE FUNCTION plateau_nocase(text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN translate($1, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz');
CREATE TABLE accounts (
  name TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  created_ms BIGINT NOT NULL
);
CREATE UNIQUE INDEX accounts_name ON accounts (plateau_nocase(name));
CREATE TABLE ratings (
  game TEXT NOT NULL,
  player TEXT NOT NULL,
  rating DOUBLE PRECISION NOT NULL,
  deviation DOUBLE PRECISION NOT NULL,
  volatility DOUBLE PRECISION NOT NULL,
  games INTEGER NOT NULL
);
CREATE UNIQUE INDEX ratings_key ON ratings (game, plateau_nocase(player));
CREATE TABLE tables (
  id BIGINT PRIMARY KEY,
  game TEXT NOT NULL,
  number INTEGER NOT NULL,
  data TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  UNIQUE (game, number)
);
CREATE TABLE moves (
  table_id BIGINT NOT NULL REFERENCES tables(id),
  ply INTEGER NOT NULL,
  move TEXT NOT NULL,
  seat INTEGER NOT NULL,
  automatic INTEGER NOT NULL,
  at_ms BIGINT NOT NULL,
  PRIMARY KEY (table_id, ply)
);
CREATE TABLE chat (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  table_id BIGINT NOT NULL REFERENCES tables(id),
  at_ms BIGINT NOT NULL,
  "user" TEXT NOT NULL,
  text TEXT NOT NULL
);
CREATE INDEX chat_by_table ON chat(table_id, seq);
)sql",
      // 2: when the server was last alive.
      R"sql(
CREATE TABLE server_state (
  key TEXT PRIMARY KEY,
  value BIGINT NOT NULL
);
)sql",
      // 3: named counters that must never go back.
      R"sql(
CREATE TABLE counters (
  name TEXT PRIMARY KEY,
  value BIGINT NOT NULL
);
)sql",
      // 4: the challenges an account accepts.
      R"sql(
ALTER TABLE accounts ADD COLUMN challenge_limit INTEGER NOT NULL DEFAULT -1;
)sql",
      // 5: the events of each table.
      R"sql(
CREATE TABLE table_events (
  table_id BIGINT NOT NULL REFERENCES tables(id),
  seq BIGINT NOT NULL,
  kind TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (table_id, seq)
);
)sql",
      // 6: resume tokens, stored hashed.
      R"sql(
CREATE TABLE resume_tokens (
  selector TEXT PRIMARY KEY,
  verifier_hash TEXT NOT NULL,
  "user" TEXT NOT NULL,
  guest INTEGER NOT NULL,
  created_ms BIGINT NOT NULL,
  expires_ms BIGINT NOT NULL
);
)sql",
      // 7: play by e-mail: an account's address, and the outbox of mail to send.
      R"sql(
ALTER TABLE accounts ADD COLUMN email TEXT NOT NULL DEFAULT '';
CREATE TABLE mail_outbox (
  key TEXT PRIMARY KEY,
  recipient TEXT NOT NULL,
  message TEXT NOT NULL,
  created_ms BIGINT NOT NULL
);
)sql",
      // 8: correspondence play: an account's `notify` setting, and the vacations.
      R"sql(
ALTER TABLE accounts ADD COLUMN notify TEXT NOT NULL DEFAULT 'every';
CREATE TABLE vacations (
  "user" TEXT NOT NULL,
  start_ms BIGINT NOT NULL,
  end_ms BIGINT NOT NULL,
  PRIMARY KEY ("user", start_ms)
);
)sql",
      // 9: the inbound mail already run (a redelivery's Message-ID says it was done).
      R"sql(
CREATE TABLE mail_seen (
  sender TEXT NOT NULL,
  message_id TEXT NOT NULL,
  seen_ms BIGINT NOT NULL,
  PRIMARY KEY (sender, message_id)
);
CREATE INDEX mail_seen_by_age ON mail_seen(seen_ms);
)sql",
      // 10: several nodes on one database: the registered nodes, each table's owner and epoch.
      R"sql(
CREATE TABLE nodes (
  id TEXT PRIMARY KEY,
  address TEXT NOT NULL,
  node_port INTEGER NOT NULL,
  started_at BIGINT NOT NULL,
  seen_at BIGINT NOT NULL
);
ALTER TABLE tables ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
CREATE INDEX tables_by_owner ON tables(owner);
)sql",
      // 11: what the nodes share while they live (docs/CLUSTER.md, "Events across nodes"): who
      // is logged in where, each node's listing, and the users seated at each node's tables
      // not over, by name (a login finds its tables on other nodes by this index). IF NOT
      // EXISTS: the event feed made the first two itself before this version.
      R"sql(
CREATE TABLE IF NOT EXISTS plateau_presence (
  node TEXT NOT NULL,
  name TEXT NOT NULL,
  since BIGINT NOT NULL,
  PRIMARY KEY (node, name)
);
CREATE TABLE IF NOT EXISTS plateau_listings (
  node TEXT PRIMARY KEY,
  body TEXT NOT NULL,
  at BIGINT NOT NULL
);
CREATE TABLE plateau_seats (
  node TEXT NOT NULL,
  table_id BIGINT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (node, table_id, name)
);
CREATE INDEX plateau_seats_by_name ON plateau_seats(name);
)sql",
  };
  return kMigrations;
}

}  // namespace plateau::store
