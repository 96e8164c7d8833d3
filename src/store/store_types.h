#pragma once
// Rows of the durable store (DESIGN.md §1, store layer). Plain values: the store reads and writes
// them and never interprets a game; the server owns their meaning (the JSON in TableRow::data).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace plateau::store {

struct AccountRow {
  std::string name;           // unique, case-insensitive
  std::string password_hash;  // libsodium Argon2id string (crypto_pwhash_str)
  std::int64_t created_ms = 0;
  // Challenges the account accepts (the `limit` command): kAcceptAllChallenges, 0 (none), or at
  // most N open boards started by others.
  int challenge_limit = -1;
  // Where the account's mail goes (play by e-mail, issue 15); "" for none.
  std::string email{};
  // Which mail the account gets about games it is not connected to (issue 15, item 4; the
  // `notify` command): "every" event, a daily "digest", or "off".
  std::string notify{"every"};
  bool operator==(const AccountRow&) const = default;
};

inline constexpr int kAcceptAllChallenges = -1;

// Glicko-2 rating of one player (account name or "cpu:LEVEL") in one game.
struct RatingRow {
  std::string game;
  std::string player;
  double rating = 1500.0;
  double deviation = 350.0;
  double volatility = 0.06;
  int games = 0;
  bool operator==(const RatingRow&) const = default;
};

// A table or pbmserv board. `data` is the server's JSON of everything mutable that is not a move
// or a chat line (seats, status, clocks, queued moves, pending requests).
struct TableRow {
  std::int64_t id = 0;
  std::string game;  // registry name
  int number = 0;    // board number, per game, from 101
  std::string data;  // JSON, owned by the server
  std::int64_t created_ms = 0;
  // Several nodes on one PostgreSQL database (issue 16; docs/CLUSTER.md): the node that serves
  // the table ("" for none: a single server, or a table no node has claimed yet) and its
  // fencing token, raised by one at every takeover. Written when the row is inserted; a later
  // PutTable keeps them (only a claim changes them: cluster/cluster_db.h).
  std::string owner{};
  std::int64_t epoch = 0;
  bool operator==(const TableRow&) const = default;
};

// One accepted move. (table_id, ply) is the primary key, so a move can never be stored twice.
struct MoveRow {
  std::int64_t table_id = 0;
  int ply = 0;             // 1-based
  std::string move;        // canonical notation
  int seat = 0;            // game seat that made it
  bool automatic = false;  // played from the queue or by a CPU seat
  std::int64_t at_ms = 0;  // wall clock, ms since the epoch
  bool operator==(const MoveRow&) const = default;
};

struct ChatRow {
  std::int64_t table_id = 0;
  std::int64_t at_ms = 0;
  std::string user;
  std::string text;
  bool operator==(const ChatRow&) const = default;
};

// One event of a table (server/table_events.h). (table_id, seq) is the primary key.
struct EventRow {
  std::int64_t table_id = 0;
  std::int64_t seq = 0;  // 1, 2, 3, ... per table
  std::string kind;      // the event's kind, for people reading the database
  std::string body;      // JSON, owned by the server
  bool operator==(const EventRow&) const = default;
};

// A resume token (issue 13, item 6), stored hashed: `selector` (public half, the key) and the
// BLAKE2b hash of the secret half. The server owns the format (server/resume_tokens.h).
struct TokenRow {
  std::string selector;       // hex, unique
  std::string verifier_hash;  // hex BLAKE2b-256 of the secret half
  std::string user;           // account or guest name
  bool guest = false;
  std::int64_t created_ms = 0;
  std::int64_t expires_ms = 0;  // wall clock, ms since the epoch
  bool operator==(const TokenRow&) const = default;
};

// A mail waiting in the outbox (issue 15, item 3): written in the same transaction as the event
// it tells of, deleted once the SMTP server has accepted it. `key` names the event and the
// recipient ("phutball.101.7 alice"), so that one event is one row per recipient.
struct MailRow {
  std::string key;
  std::string recipient;  // the envelope address
  std::string message;    // the whole RFC 5322 message, CRLF line ends
  std::int64_t created_ms = 0;
  bool operator==(const MailRow&) const = default;
};

// One vacation of one user (issue 15, item 5; `vacation DAYS`): the user's correspondence time
// stands still in [start_ms, end_ms). (user, start_ms) is the key.
struct VacationRow {
  std::string user;  // account name
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  bool operator==(const VacationRow&) const = default;
};

// An inbound mail already run (issue 15 a): its sender (the envelope address, lower-case) and
// Message-ID (without brackets), and when it was run (wall clock, ms since the epoch).
struct MailSeenRow {
  std::string sender;
  std::string message_id;
  std::int64_t seen_ms = 0;
  bool operator==(const MailSeenRow&) const = default;
};

// A `plateau serve` node registered in a shared database (issue 16; cluster/node.h). Times are
// the database's clock, ms since the epoch; `seen_at` is its last heartbeat.
struct NodeRow {
  std::string id;
  std::string address;  // HOST:PORT where clients reach it (--node-address)
  int node_port = 0;    // its port for other nodes (--node-port)
  std::int64_t started_at = 0;
  std::int64_t seen_at = 0;
  bool operator==(const NodeRow&) const = default;
};

// Everything the store holds, as read at start-up.
struct Snapshot {
  std::vector<AccountRow> accounts;
  std::vector<RatingRow> ratings;
  std::vector<TableRow> tables;                        // by id
  std::map<std::int64_t, std::vector<MoveRow>> moves;  // table id -> moves by ply
  std::map<std::int64_t, std::vector<ChatRow>> chat;   // table id -> lines in order
  // table id -> its last events (at most Store::load's `events_per_table`), by seq.
  std::map<std::int64_t, std::vector<EventRow>> events;
  // When the server that wrote this store was last known alive (wall clock, ms since the epoch):
  // its last commit, heartbeat or clean shutdown. 0 if unknown (a store from before it was kept).
  std::int64_t alive_ms = 0;
  std::map<std::string, std::int64_t> counters;        // name -> value (e.g. "guest")
  std::vector<TokenRow> tokens;                         // resume tokens, expired ones included
  std::vector<MailRow> outbox;                          // unsent mail, oldest first
  std::vector<VacationRow> vacations;                   // by user, then start
  std::vector<MailSeenRow> mail_seen;                   // inbound mail run, oldest first
  std::vector<NodeRow> nodes;                           // registered nodes, by id
  bool operator==(const Snapshot&) const = default;
};

}  // namespace plateau::store
