#include "cluster/mail_db.h"

namespace plateau::cluster {

namespace {

using store::pg::Params;
using store::pg::Result;
using store::pg::Transaction;

// The database's clock in ms: leases and parts are compared with it alone, never with a node's.
#define PLATEAU_NOW_MS "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"
// A claim nobody holds any more: its lease ran out, or its node was found dead (its row goes
// with the takeover of its tables, cluster_db.h claim_tables), or it is damaged: a lease or
// back-off running out more than an hour from now was written by no node (they are at most
// minutes), and would hold its mail until its node restarted.
#define PLATEAU_CLAIM_FREE(c)                                                         \
  "(" c ".until_ms <= " PLATEAU_NOW_MS " OR " c ".until_ms > " PLATEAU_NOW_MS         \
  " + 3600000 OR NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = " c ".node))"

}  // namespace

void prepare_mail_tables(Connection& db) {
  Transaction tx(db);
  // Two nodes starting at once would make CREATE OR REPLACE fail with "tuple concurrently
  // updated": one at a time (a class key of its own, not the nodes' locks).
  db.exec("SELECT pg_advisory_xact_lock(1886151030, 1)");
  db.exec(R"sql(
CREATE TABLE IF NOT EXISTS plateau_mail_claims (
  key TEXT PRIMARY KEY,
  node TEXT NOT NULL,
  until_ms BIGINT NOT NULL,
  attempts INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS plateau_digest_parts (
  day BIGINT NOT NULL,
  node TEXT NOT NULL,
  body TEXT NOT NULL,
  at_ms BIGINT NOT NULL,
  PRIMARY KEY (day, node)
);
CREATE TABLE IF NOT EXISTS plateau_mail_sent (
  address TEXT NOT NULL,
  at_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS plateau_mail_sent_by_address ON plateau_mail_sent (address, at_ms);
CREATE TABLE IF NOT EXISTS plateau_account_changes (
  name TEXT PRIMARY KEY,
  changed_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS plateau_account_changes_at ON plateau_account_changes (changed_ms);
CREATE OR REPLACE FUNCTION plateau_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO plateau_account_changes(name, changed_ms)
    VALUES (plateau_nocase(NEW.name), (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
    ON CONFLICT (name) DO UPDATE SET changed_ms = excluded.changed_ms;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER plateau_account_changed AFTER INSERT OR UPDATE ON accounts
  FOR EACH ROW EXECUTE FUNCTION plateau_account_changed();
)sql");
  tx.commit();
}

std::vector<ClaimedMail> claim_mail(Connection& db, const std::string& self, int max,
                                    std::int64_t lease_ms) {
  // SKIP LOCKED keeps two nodes from waiting on each other's rows; the conflict clause's WHERE
  // is what makes a claim exclusive: it is evaluated on the latest claim, under its row lock,
  // so a claim another node committed after this statement's snapshot is not overwritten.
  // The count of attempts is bounded (only the back-off reads it): a damaged row claimed
  // 2^31 - 1 times would overflow the INTEGER and fail this whole statement, every round, on
  // every node, and no mail would leave any more.
  Result r = db.run(
      "WITH due AS (SELECT o.key FROM mail_outbox o "
      "  LEFT JOIN plateau_mail_claims c ON c.key = o.key "
      "  WHERE c.key IS NULL OR " PLATEAU_CLAIM_FREE("c") " "
      "  ORDER BY o.created_ms, o.key COLLATE \"C\" LIMIT $2 FOR UPDATE OF o SKIP LOCKED), "
      "claimed AS (INSERT INTO plateau_mail_claims AS c (key, node, until_ms, attempts) "
      "  SELECT key, $1, " PLATEAU_NOW_MS " + $3, 1 FROM due "
      "  ON CONFLICT (key) DO UPDATE SET node = excluded.node, until_ms = excluded.until_ms, "
      "  attempts = least(greatest(c.attempts, 0), 1000) + 1 WHERE " PLATEAU_CLAIM_FREE("c") " "
      "  RETURNING key, attempts) "
      "SELECT o.key, o.recipient, o.message, o.created_ms, claimed.attempts "
      "FROM claimed JOIN mail_outbox o ON o.key = claimed.key "
      "ORDER BY o.created_ms, o.key COLLATE \"C\"",
      Params().text(self).integer(max).integer(lease_ms));
  std::vector<ClaimedMail> out;
  for (int i = 0; i < r.rows(); ++i) {
    out.push_back({{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.integer(i, 3)},
                   static_cast<int>(r.integer(i, 4))});
  }
  return out;
}

bool renew_claim(Connection& db, const std::string& self, const std::string& key,
                 std::int64_t lease_ms) {
  return db.run("UPDATE plateau_mail_claims SET until_ms = " PLATEAU_NOW_MS
                " + $3 WHERE key = $2 AND node = $1 AND until_ms > " PLATEAU_NOW_MS " RETURNING 1",
                Params().text(self).text(key).integer(lease_ms))
             .rows() > 0;
}

void finish_mail(Connection& db, const std::string& key, const std::string& sent_to) {
  if (sent_to.empty()) {
    db.run(
        "WITH gone AS (DELETE FROM mail_outbox WHERE key = $1) "
        "DELETE FROM plateau_mail_claims WHERE key = $1",
        Params().text(key));
    return;
  }
  db.run(
      "WITH gone AS (DELETE FROM mail_outbox WHERE key = $1), "
      "sent AS (INSERT INTO plateau_mail_sent(address, at_ms) VALUES ($2, " PLATEAU_NOW_MS
      ")) "
      "DELETE FROM plateau_mail_claims WHERE key = $1",
      Params().text(key).text(sent_to));
}

std::int64_t sent_last_hour(Connection& db, const std::string& address) {
  return db
      .run("SELECT count(*) FROM plateau_mail_sent WHERE address = $1 AND at_ms > " PLATEAU_NOW_MS
           " - 3600000",
           Params().text(address))
      .integer(0, 0);
}

void forget_sent(Connection& db) {
  db.run("DELETE FROM plateau_mail_sent WHERE at_ms <= " PLATEAU_NOW_MS " - 3600000");
}

void retry_mail(Connection& db, const std::string& self, const std::string& key,
                std::int64_t delay_ms) {
  db.run("UPDATE plateau_mail_claims SET until_ms = " PLATEAU_NOW_MS
         " + $3 WHERE key = $2 AND node = $1",
         Params().text(self).text(key).integer(delay_ms));
}

int release_claims(Connection& db, const std::string& self) {
  Result r = db.run(
      "WITH freed AS (UPDATE plateau_mail_claims SET until_ms = 0 WHERE node = $1 AND until_ms > 0 "
      "RETURNING 1) "
      "SELECT count(*) FROM freed",
      Params().text(self));
  return static_cast<int>(r.integer(0, 0));
}

std::int64_t outbox_size(Connection& db) {
  return db.run("SELECT count(*) FROM mail_outbox").integer(0, 0);
}

std::int64_t digest_day(Connection& db) {
  Result r = db.run("SELECT value FROM counters WHERE name = 'digest_day'");
  return r.rows() == 0 ? 0 : r.integer(0, 0);
}

void put_digest_part(Connection& db, std::int64_t day, const std::string& self,
                     const std::string& body) {
  db.run(
      "INSERT INTO plateau_digest_parts(day, node, body, at_ms) VALUES ($1, $2, $3, " PLATEAU_NOW_MS
      ") ON CONFLICT (day, node) DO UPDATE SET body = excluded.body",
      Params().integer(day).text(self).text(body));
}

bool assemble_digests(Connection& db, std::int64_t day, std::int64_t alive_ms,
                      const ComposeDigests& compose) {
  Transaction tx(db);
  // The counter's row lock makes the assembly of a day one node's: another waits here, then
  // finds the day done.
  db.run("INSERT INTO counters(name, value) VALUES ('digest_day', 0) ON CONFLICT DO NOTHING");
  if (db.run("SELECT value FROM counters WHERE name = 'digest_day' FOR UPDATE").integer(0, 0) >=
      day) {
    tx.commit();
    return true;
  }
  Result waiting =
      db.run("SELECT (SELECT count(*) FROM nodes n WHERE n.seen_at >= " PLATEAU_NOW_MS
             " - $2 "
             "   AND NOT EXISTS (SELECT 1 FROM plateau_digest_parts p WHERE p.day = $1 AND "
             "   p.node = n.id)), "
             "  (SELECT coalesce(" PLATEAU_NOW_MS
             " - min(at_ms), -1) FROM plateau_digest_parts "
             "   WHERE day = $1)",
             Params().integer(day).integer(alive_ms));
  const std::int64_t missing = waiting.integer(0, 0), first_age = waiting.integer(0, 1);
  if (first_age < 0 || (missing > 0 && first_age < kDigestWaitMs)) return false;
  std::vector<std::string> parts;
  Result p = db.run("SELECT body FROM plateau_digest_parts WHERE day = $1 ORDER BY node",
                    Params().integer(day));
  for (int i = 0; i < p.rows(); ++i) parts.push_back(p.text(i, 0));
  std::vector<DigestReader> readers;
  Result a = db.run(
      "SELECT name, email FROM accounts WHERE notify = 'digest' AND email <> '' AND "
      "password_hash <> '' ORDER BY plateau_nocase(name) COLLATE \"C\"");
  for (int i = 0; i < a.rows(); ++i) readers.push_back({a.text(i, 0), a.text(i, 1)});
  for (const auto& row : compose(parts, readers)) {
    db.run(
        "INSERT INTO mail_outbox(key, recipient, message, created_ms) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (key) DO NOTHING",
        Params().text(row.key).text(row.recipient).text(row.message).integer(row.created_ms));
  }
  db.run("UPDATE counters SET value = $1 WHERE name = 'digest_day' AND value < $1",
         Params().integer(day));
  db.run("DELETE FROM plateau_digest_parts WHERE day <= $1", Params().integer(day));
  tx.commit();
  return true;
}

bool mail_seen(Connection& db, const std::string& sender, const std::string& message_id) {
  return db.run("SELECT 1 FROM mail_seen WHERE sender = $1 AND message_id = $2",
                Params().text(sender).text(message_id))
             .rows() > 0;
}

AccountChanges changed_accounts(Connection& db, std::int64_t since_ms) {
  AccountChanges out;
  out.now_ms = db.run("SELECT " PLATEAU_NOW_MS).integer(0, 0);
  Result r = db.run(
      "SELECT a.name, a.password_hash, a.created_ms, a.challenge_limit, a.email, a.notify "
      "FROM plateau_account_changes c JOIN accounts a ON plateau_nocase(a.name) = c.name "
      "WHERE c.changed_ms >= $1",
      Params().integer(since_ms));
  for (int i = 0; i < r.rows(); ++i) {
    out.rows.push_back({r.text(i, 0), r.text(i, 1), r.integer(i, 2),
                        static_cast<int>(r.integer(i, 3)), r.text(i, 4), r.text(i, 5)});
  }
  return out;
}

}  // namespace plateau::cluster
