#pragma once
// The SQL of mail on several nodes sharing one PostgreSQL database (issue 16; docs/MAIL.md
// "Several nodes", docs/CLUSTER.md): every node may write mail into the one outbox
// (`mail_outbox`, written by the table's owner in the batch of its action), and every mail must
// be sent once, by whichever node is alive.
//
//   * Claims (plateau_mail_claims): a node sends only the rows it claimed. claim_mail() takes
//     due rows with `FOR UPDATE SKIP LOCKED` and records (node, until_ms: a lease in the
//     database's clock); a claim is taken over only once its lease ran out or its node has no
//     `nodes` row any more (found dead and taken over: cluster_db.h claim_tables). A claim
//     that another node won meanwhile is not returned (`ON CONFLICT ... DO UPDATE ... WHERE`
//     re-checks the latest claim under its row lock), so two nodes never hold one row.
//   * Digests (plateau_digest_parts): each node writes the boards it serves that wait on each
//     user for UTC day DAY (its "part"); once every live node wrote one (or the first part is
//     kDigestWaitMs old), one node assembles them in one transaction that holds the
//     `digest_day` counter's row lock: one digest per user per day, whatever the number of
//     nodes, and no two nodes ever insert the same outbox key.
//   * Mail sent (plateau_mail_sent): the address and time of each mail sent in the last hour,
//     by any node, so that the per-address cap holds for the nodes together.
//   * Account changes (plateau_account_changes): a trigger on `accounts` records the time of
//     each insert or update (the database's clock), so that every node reads again the
//     accounts another node changed (a password, `notify`, an address) within a second
//     (cluster/node.h set_accounts_changed).
// These tables are made here (CREATE ... IF NOT EXISTS, under an advisory lock), hold only
// what is in flight, and are not copied by `plateau store copy` (as plateau_presence).
// Every function throws store::pg::Error or store::pg::ConnectionLost (the caller reconnects).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "store/pg_connection.h"
#include "store/store_types.h"

namespace plateau::cluster {

using store::pg::Connection;

// How long a day's digests wait for a live node's part before they are assembled without it
// (a node that lives but cannot write: its players' boards miss that day's digest).
inline constexpr std::int64_t kDigestWaitMs = 10 * 60 * 1000;

// Makes the tables and the trigger above if they are missing. Idempotent; safe when several
// nodes start at once.
void prepare_mail_tables(Connection& db);

// A claimed outbox row and how many times it was claimed (1 the first time: the back-off of a
// retry grows with it).
struct ClaimedMail {
  store::MailRow row;
  int attempts = 0;
};
// Claims for node `self`, for `lease_ms`, at most `max` outbox rows that nobody holds (no claim,
// a claim whose lease ran out, one of a node without a `nodes` row, or a damaged one whose
// lease ends more than an hour from now), oldest first. `attempts` counts up to 1,001 at most.
std::vector<ClaimedMail> claim_mail(Connection& db, const std::string& self, int max,
                                    std::int64_t lease_ms);
// Right before a send: true if `self` still holds the claim of `key` (its lease not run out, not
// taken by another node: a node that was frozen and taken over finds its claims gone), which
// then runs `lease_ms` from now.
bool renew_claim(Connection& db, const std::string& self, const std::string& key,
                 std::int64_t lease_ms);
// The mail was accepted by the SMTP server (or refused for good): the row and its claim go.
// `sent_to` (lower-case; "" for a mail not sent) is recorded for sent_last_hour().
void finish_mail(Connection& db, const std::string& key, const std::string& sent_to = {});
// How many mails the nodes sent to `address` (lower-case) in the last hour (the per-address
// cap of every node together: server/mail_outbox.h kMailPerAddressHour). Records older than an
// hour are deleted by forget_sent().
std::int64_t sent_last_hour(Connection& db, const std::string& address);
void forget_sent(Connection& db);
// The mail could not be sent: any node may claim it again in `delay_ms` (the back-off).
void retry_mail(Connection& db, const std::string& self, const std::string& key,
                std::int64_t delay_ms);
// The claims of `self` become free at once (a node's start: what its previous process held is
// not being sent; its stop: what it claimed and did not send). Returns how many.
int release_claims(Connection& db, const std::string& self);
// The unsent rows of the outbox (its bound, kMaxOutboxRows, holds for all nodes together).
std::int64_t outbox_size(Connection& db);

// The last UTC day whose digests were assembled (counter `digest_day`; 0 for none).
std::int64_t digest_day(Connection& db);
// Writes (or rewrites) node `self`'s part of day `day`: `body` (JSON, the caller's format).
void put_digest_part(Connection& db, std::int64_t day, const std::string& self,
                     const std::string& body);
// An account that asked for digests (notify digest, an address, not closed).
struct DigestReader {
  std::string name;
  std::string email;
};
// The mail of one digest, made by the caller from every part (`compose`).
using ComposeDigests = std::function<std::vector<store::MailRow>(
    const std::vector<std::string>& parts, const std::vector<DigestReader>& readers)>;
// If day `day` is not assembled yet and every live node (seen within `alive_ms`) has written
// its part (or the first part is kDigestWaitMs old): in one transaction, composes the digests
// from the parts, inserts them into the outbox (a key already there is left alone), sets the
// `digest_day` counter to `day` and deletes the parts of that day and earlier. Returns true
// once day `day` is assembled (by this call or an earlier one, on any node); false while parts
// are missing.
bool assemble_digests(Connection& db, std::int64_t day, std::int64_t alive_ms,
                      const ComposeDigests& compose);

// Whether inbound mail (`sender` lower-case, `message_id`) was run already, on any node (its
// pair in mail_seen, written by the node that ran it: server/mail_dedup.h).
bool mail_seen(Connection& db, const std::string& sender, const std::string& message_id);

// The accounts changed at or after `since_ms` (the database's clock), and that clock now:
// poll with `since_ms` a few seconds before the last `now_ms` (a change committed late is
// still seen).
struct AccountChanges {
  std::vector<store::AccountRow> rows;
  std::int64_t now_ms = 0;
};
AccountChanges changed_accounts(Connection& db, std::int64_t since_ms);

}  // namespace plateau::cluster
