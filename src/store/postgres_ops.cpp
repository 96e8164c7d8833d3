#include "store/postgres_ops.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "store/fence.h"

namespace plateau::store {

namespace {

using pg::Params;

// The six account columns in the order of both account statements below.
Params account_params(const AccountRow& row) {
  return Params()
      .text(row.name)
      .text(row.password_hash)
      .integer(row.created_ms)
      .integer(row.challenge_limit)
      .text(row.email)
      .text(row.notify);
}

class OpWriter {
 public:
  explicit OpWriter(PgSink& db) : db_(db) {}

  void operator()(const PutAccount& op) {
    db_.run(
        "INSERT INTO accounts(name, password_hash, created_ms, challenge_limit, email, notify) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT ((plateau_nocase(name))) DO UPDATE SET "
        "name = excluded.name, password_hash = excluded.password_hash, "
        "created_ms = excluded.created_ms, challenge_limit = excluded.challenge_limit, "
        "email = excluded.email, notify = excluded.notify",
        account_params(op.row));
  }

  void operator()(const PutRating& op) {
    db_.run(
        "INSERT INTO ratings(game, player, rating, deviation, volatility, games) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game, (plateau_nocase(player))) "
        "DO UPDATE SET player = excluded.player, rating = excluded.rating, "
        "deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games",
        Params()
            .text(op.row.game)
            .text(op.row.player)
            .real(op.row.rating)
            .real(op.row.deviation)
            .real(op.row.volatility)
            .integer(op.row.games));
  }

  void operator()(const PutTable& op) {
    db_.run(
        "INSERT INTO tables(id, game, number, data, created_ms, owner, epoch) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO UPDATE SET data = excluded.data",
        Params()
            .integer(op.row.id)
            .text(op.row.game)
            .integer(op.row.number)
            .text(op.row.data)
            .integer(op.row.created_ms)
            .text(op.row.owner)
            .integer(op.row.epoch));
  }

  void operator()(const AddMove& op) {
    db_.run(
        "INSERT INTO moves(table_id, ply, move, seat, automatic, at_ms) "
        "VALUES ($1, $2, $3, $4, $5, $6)",
        Params()
            .integer(op.row.table_id)
            .integer(op.row.ply)
            .text(op.row.move)
            .integer(op.row.seat)
            .integer(op.row.automatic ? 1 : 0)
            .integer(op.row.at_ms));
  }

  void operator()(const DeleteMovesFrom& op) {
    db_.run("DELETE FROM moves WHERE table_id = $1 AND ply >= $2",
            Params().integer(op.table_id).integer(op.from_ply));
  }

  void operator()(const AddChat& op) {
    db_.run("INSERT INTO chat(table_id, at_ms, \"user\", text) VALUES ($1, $2, $3, $4)",
            Params()
                .integer(op.row.table_id)
                .integer(op.row.at_ms)
                .text(op.row.user)
                .text(op.row.text));
  }

  void operator()(const AddEvent& op) {
    db_.run(
        "INSERT INTO table_events(table_id, seq, kind, body) VALUES ($1, $2, $3, $4)",
        Params().integer(op.row.table_id).integer(op.row.seq).text(op.row.kind).text(op.row.body));
  }

  void operator()(const PutCounter& op) {
    db_.run(
        "INSERT INTO counters(name, value) VALUES ($1, $2) "
        "ON CONFLICT (name) DO UPDATE SET value = GREATEST(counters.value, excluded.value)",
        Params().text(op.name).integer(op.value));
  }

  void operator()(const DeleteTable& op) {
    for (const char* sql :
         {"DELETE FROM chat WHERE table_id = $1", "DELETE FROM moves WHERE table_id = $1",
          "DELETE FROM table_events WHERE table_id = $1", "DELETE FROM tables WHERE id = $1"}) {
      db_.run(sql, Params().integer(op.table_id));
    }
  }

  void operator()(const PutToken& op) {
    db_.run(
        "INSERT INTO resume_tokens(selector, verifier_hash, \"user\", guest, created_ms, "
        "expires_ms) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (selector) DO UPDATE SET "
        "verifier_hash = excluded.verifier_hash, \"user\" = excluded.\"user\", "
        "guest = excluded.guest, created_ms = excluded.created_ms, "
        "expires_ms = excluded.expires_ms",
        Params()
            .text(op.row.selector)
            .text(op.row.verifier_hash)
            .text(op.row.user)
            .integer(op.row.guest ? 1 : 0)
            .integer(op.row.created_ms)
            .integer(op.row.expires_ms));
  }

  void operator()(const DeleteToken& op) {
    db_.run("DELETE FROM resume_tokens WHERE selector = $1", Params().text(op.selector));
  }

  void operator()(const AddMail& op) {
    db_.run("INSERT INTO mail_outbox(key, recipient, message, created_ms) VALUES ($1, $2, $3, $4)",
            Params()
                .text(op.row.key)
                .text(op.row.recipient)
                .text(op.row.message)
                .integer(op.row.created_ms));
  }

  void operator()(const DeleteMail& op) {
    db_.run("DELETE FROM mail_outbox WHERE key = $1", Params().text(op.key));
  }

  void operator()(const PutVacation& op) {
    db_.run(
        "INSERT INTO vacations(\"user\", start_ms, end_ms) VALUES ($1, $2, $3) "
        "ON CONFLICT (\"user\", start_ms) DO UPDATE SET end_ms = excluded.end_ms",
        Params().text(op.row.user).integer(op.row.start_ms).integer(op.row.end_ms));
  }

  void operator()(const PutMailSeen& op) {
    db_.run(
        "INSERT INTO mail_seen(sender, message_id, seen_ms) VALUES ($1, $2, $3) "
        "ON CONFLICT (sender, message_id) DO UPDATE SET seen_ms = excluded.seen_ms",
        Params().text(op.row.sender).text(op.row.message_id).integer(op.row.seen_ms));
  }

  void operator()(const PruneMailSeen& op) {
    db_.run("DELETE FROM mail_seen WHERE seen_ms < $1", Params().integer(op.before_ms));
  }

  void operator()(const AddAccount& op) {
    db_.run(
        "INSERT INTO accounts(name, password_hash, created_ms, challenge_limit, email, notify) "
        "VALUES ($1, $2, $3, $4, $5, $6)",
        account_params(op.row));
  }

  void operator()(const PutNode& op) {
    db_.run(
        "INSERT INTO nodes(id, address, node_port, started_at, seen_at) "
        "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO UPDATE SET address = excluded.address, "
        "node_port = excluded.node_port, started_at = excluded.started_at, "
        "seen_at = excluded.seen_at",
        Params()
            .text(op.row.id)
            .text(op.row.address)
            .integer(op.row.node_port)
            .integer(op.row.started_at)
            .integer(op.row.seen_at));
  }

  void operator()(const FenceTable& op) { db_.fence(op); }

 private:
  PgSink& db_;
};

// Announces the table events of `batch` to the other nodes (issue 16 item 3): one
// pg_notify('plateau_events', 'TABLE,FIRST_SEQ,LAST_SEQ,EPOCH') per table of the batch, in its
// transaction (sent at the commit, dropped with a rolled-back savepoint). The epoch is the
// batch's fence (0 on a single server, which has no fence).
void notify_events(PgSink& db, const Batch& batch) {
  struct Range {
    std::int64_t first = INT64_MAX, last = 0, epoch = 0;
  };
  std::vector<std::pair<std::int64_t, Range>> tables;
  auto range_of = [&](std::int64_t id) -> Range& {
    for (auto& [t, r] : tables) {
      if (t == id) return r;
    }
    return tables.emplace_back(id, Range{}).second;
  };
  for (const Op& op : batch.ops()) {
    if (const auto* e = std::get_if<AddEvent>(&op)) {
      Range& r = range_of(e->row.table_id);
      r.first = std::min(r.first, e->row.seq);
      r.last = std::max(r.last, e->row.seq);
    } else if (const auto* f = std::get_if<FenceTable>(&op)) {
      range_of(f->table_id).epoch = f->epoch;
    }
  }
  for (const auto& [id, r] : tables) {
    if (r.last == 0) continue;  // fenced, but no event
    db.notify(std::to_string(id) + "," + std::to_string(r.first) + "," + std::to_string(r.last) +
              "," + std::to_string(r.epoch));
  }
}

}  // namespace

void PgSink::notify(std::string payload) {
  run("SELECT pg_notify('plateau_events', $1)", Params().text(payload));
}

void notify_all(PgSink& sink, const std::vector<std::string>& payloads) {
  if (payloads.empty()) return;
  // A text[] literal: each payload is digits and commas, quoted.
  std::string array = "{";
  for (const std::string& p : payloads) array += (array.size() > 1 ? ",\"" : "\"") + p + "\"";
  array += "}";
  sink.run(
      "SELECT pg_notify('plateau_events', p) FROM unnest($1::text[]) WITH ORDINALITY AS "
      "n(p, i) ORDER BY i",
      Params().text(array));
}

void check_fence(const FenceTable& op, const pg::Result& row) {
  if (row.rows() == 0) return;
  std::string owner = row.text(0, 0);
  const std::int64_t epoch = row.integer(0, 1);
  if (owner != op.owner || epoch != op.epoch) {
    throw TableFenced(op.table_id, std::move(owner), epoch);
  }
}

void write_batch(PgSink& sink, const Batch& batch) {
  OpWriter writer(sink);
  for (const Op& op : batch.ops()) std::visit(writer, op);
  notify_events(sink, batch);
}

}  // namespace plateau::store
