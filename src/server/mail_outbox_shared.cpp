// The outbox of several nodes on one PostgreSQL database (mail_outbox.h SharedMail; docs/MAIL.md
// "Several nodes"): the sender claims rows from the shared outbox (cluster/mail_db.h) rather
// than keeping them in memory, and the daily digests are assembled from every node's part.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>
#include <vector>

#include "cluster/cluster_db.h"
#include "cluster/mail_db.h"
#include "core/text.h"
#include "server/mail_outbox.h"
#include "server/notifier.h"
#include "server/rate_limited_log.h"
#include "server/table_quota.h"

namespace plateau::server {

namespace {

// A node seen this recently is alive (cluster::NodeTiming::dead_after_ms): its digest part is
// waited for.
constexpr std::int64_t kAliveMs = 2000;
// How often the shared outbox is polled when this node stored nothing meanwhile.
constexpr auto kPollEvery = std::chrono::seconds(1);

// The SMTP server accepted a mail and its row could not be deleted (the database was lost in
// between): run_shared() deletes it first once the database is back, before it frees this
// node's claims, or the mail would be sent again (a restart of PostgreSQL in the middle of an
// SMTP transaction sent it twice: cluster_mail_attack_restart_test).
struct SentUnfinished : std::runtime_error {
  SentUnfinished(std::string key, std::string address, const std::string& why)
      : std::runtime_error(why), key(std::move(key)), address(std::move(address)) {}
  std::string key, address;
};
// How many of them are remembered (one per loss of the database, in practice).
constexpr std::size_t kMaxUnfinished = 1000;

std::int64_t backoff_ms(int attempts) {
  return 1000LL * std::min(300, 1 << std::min(std::max(attempts, 1) - 1, 9));
}

}  // namespace

bool MailOutbox::share_digest_part(std::int64_t day, std::string part,
                                   std::function<void(bool assembled)> done) {
  if (!shared_) return false;
  if (!enabled_) {  // no --smtp: nothing would send them
    done(false);
    return true;
  }
  {
    std::lock_guard lock(mutex_);
    digest_parts_.push_back({day, std::move(part), std::move(done)});
  }
  wake_.notify_all();
  return true;
}

std::vector<store::MailRow> MailOutbox::compose_digests(
    std::int64_t day, const std::vector<std::string>& parts,
    const std::vector<std::pair<std::string, std::string>>& readers) {
  // The parts were written by nodes (the database is a trust boundary): anything that is not
  // the expected shape is left out, never thrown on.
  std::map<std::string, std::vector<WaitingBoard>> waiting;  // lower-case user -> boards
  for (const auto& text : parts) {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object()) continue;
    for (const auto& [user, boards] : j.items()) {
      if (!boards.is_array()) continue;
      for (const auto& b : boards) {
        if (!b.is_object() || !b.contains("title") || !b["title"].is_string() ||
            !b.contains("label") || !b["label"].is_string() || !b.contains("since") ||
            !b["since"].is_number_integer()) {
          continue;
        }
        waiting[user].push_back({b["title"].get<std::string>(), b["label"].get<std::string>(),
                                 b["since"].get<std::int64_t>()});
      }
    }
  }
  std::vector<store::MailRow> rows;
  for (const auto& [name, address] : readers) {
    auto it = waiting.find(to_lower(name));
    if (it == waiting.end() || it->second.empty()) continue;
    auto& boards = it->second;
    // Longest waiting first, whatever node serves the board.
    std::sort(boards.begin(), boards.end(), [](const WaitingBoard& a, const WaitingBoard& b) {
      return a.since_ms != b.since_ms ? a.since_ms < b.since_ms : a.label < b.label;
    });
    if (!admit(address)) continue;
    rows.push_back(
        digest_row("digest." + std::to_string(day) + " " + to_lower(name), name, address,
                   "Plateau: your move on " + count_of(static_cast<int>(boards.size()), "board"),
                   digest_body(name, boards)));
  }
  return rows;
}

void MailOutbox::run_shared() {
  RateLimitedLog failures;
  const std::string url = cluster::url_for_node(shared_->url, shared_->node_id);
  std::unique_ptr<store::pg::Connection> db;
  bool started = false;
  std::vector<std::pair<std::string, std::string>> unfinished;  // key, address: sent
  auto forget_at = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    try {
      if (!db) db = std::make_unique<store::pg::Connection>(url);
      if (!started) {
        while (!unfinished.empty()) {
          cluster::finish_mail(*db, unfinished.back().first, unfinished.back().second);
          spdlog::info("mail: {} sent before the database was lost; its row deleted now",
                       unfinished.back().first);
          unfinished.pop_back();
          sent_or_dropped();
        }
        // What this node's previous process claimed (or this one, before its connection was
        // lost) is not being sent by anyone.
        if (const int n = cluster::release_claims(*db, shared_->node_id); n > 0) {
          spdlog::info("mail: {} claimed by this node and not sent, to send again", n);
        }
        started = true;
      }
      if (std::chrono::steady_clock::now() >= forget_at) {
        cluster::forget_sent(*db);
        forget_at = std::chrono::steady_clock::now() + std::chrono::minutes(1);
      }
      lock.lock();
      shared_round(*db, lock);
    } catch (const std::exception& e) {
      if (auto* sent = dynamic_cast<const SentUnfinished*>(&e);
          sent && unfinished.size() < kMaxUnfinished) {
        unfinished.emplace_back(sent->key, sent->address);
      }
      if (auto n = failures.due()) {
        spdlog::warn("mail: the shared outbox cannot be read: {}{}", e.what(),
                     *n > 1 ? " (" + std::to_string(*n) + " failures since the last report)"
                            : std::string());
      }
      db.reset();
      started = false;
      if (!lock.owns_lock()) lock.lock();
    }
    if (stopping_) break;
    // Digest parts and mail this node just stored are handled at once; else a poll a second.
    wake_.wait_for(lock, kPollEvery,
                   [&] { return stopping_ || poll_now_ || !digest_parts_.empty(); });
  }
  // Parts not handled: the lobby hands them again at its next tick (or never: stopping).
  digest_parts_.clear();
}

void MailOutbox::shared_round(store::pg::Connection& db, std::unique_lock<std::mutex>& lock) {
  // Called and returns with `lock` held; the database is used without it.
  std::deque<DigestPart> parts = std::exchange(digest_parts_, {});
  poll_now_ = false;
  lock.unlock();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    DigestPart& p = parts[i];
    auto compose = [&](const std::vector<std::string>& texts,
                       const std::vector<cluster::DigestReader>& readers) {
      std::vector<std::pair<std::string, std::string>> named;
      for (const auto& r : readers) named.emplace_back(r.name, r.email);
      auto rows = compose_digests(p.day, texts, named);
      spdlog::info("mail: {} digests for day {} (parts of {} nodes)", rows.size(), p.day,
                   texts.size());
      return rows;
    };
    bool assembled = false;
    try {
      cluster::put_digest_part(db, p.day, shared_->node_id, p.part);
      assembled = cluster::assemble_digests(db, p.day, kAliveMs, compose);
    } catch (...) {
      for (std::size_t k = i; k < parts.size(); ++k) parts[k].done(false);  // next tick
      throw;
    }
    p.done(assembled);
  }
  // Every node's mail counts against the one bound on waiting rows.
  const std::int64_t waiting = cluster::outbox_size(db);
  {
    std::lock_guard l(limits_mutex_);
    pending_ = static_cast<std::size_t>(waiting);
  }
  for (;;) {
    const auto claimed = cluster::claim_mail(db, shared_->node_id, kClaimBatch, kClaimLeaseMs);
    for (std::size_t i = 0; i < claimed.size(); ++i) {
      bool stop;
      {
        std::lock_guard l(mutex_);
        stop = stopping_;
      }
      if (stop) {
        // Claimed and not sent: free for any node at once.
        for (std::size_t k = i; k < claimed.size(); ++k) {
          cluster::retry_mail(db, shared_->node_id, claimed[k].row.key, 0);
        }
        lock.lock();
        return;
      }
      send_claimed(db, claimed[i].row, claimed[i].attempts);
    }
    if (claimed.size() < static_cast<std::size_t>(kClaimBatch)) break;
  }
  lock.lock();
}

void MailOutbox::send_claimed(store::pg::Connection& db, const store::MailRow& row, int attempts) {
  static RateLimitedLog failures, capped;
  if (!cluster::renew_claim(db, shared_->node_id, row.key, kClaimLeaseMs)) {
    // Taken by another node meanwhile (this one was frozen, or slow past its lease).
    spdlog::info("mail: {} is no longer this node's to send", row.key);
    return;
  }
  const std::string address = to_lower(row.recipient);
  if (cluster::sent_last_hour(db, address) >= static_cast<std::int64_t>(kMailPerAddressHour)) {
    // Each node admits 30 an hour when it writes mail; the nodes together send no more.
    cluster::finish_mail(db, row.key);
    sent_or_dropped();
    if (auto n = capped.due()) {
      spdlog::warn(
          "mail: dropped a mail to {}: {} mails to this address in the last hour (all "
          "nodes){}",
          row.recipient, kMailPerAddressHour,
          *n > 1 ? " (" + std::to_string(*n) + " dropped since the last report)" : std::string());
    }
    return;
  }
  SmtpResult result;
  try {
    result = send_(settings_, row.recipient, row.message);
  } catch (const std::exception& e) {
    result.error = e.what();
  }
  if (result.error.empty()) {
    try {
      cluster::finish_mail(db, row.key, address);
    } catch (const std::exception& e) {
      spdlog::info("mail: sent {} to {}; its row to delete once the database is back", row.key,
                   row.recipient);
      throw SentUnfinished(row.key, address, e.what());
    }
    sent_or_dropped();
    spdlog::info("mail: sent {} to {}", row.key, row.recipient);
  } else if (result.permanent) {
    // A 5xx will be a 5xx again, on any node.
    cluster::finish_mail(db, row.key);
    sent_or_dropped();
    spdlog::warn("mail: {} to {} refused for good ({}); dropped", row.key, row.recipient,
                 result.error);
  } else {
    const std::int64_t delay = backoff_ms(attempts);
    cluster::retry_mail(db, shared_->node_id, row.key, delay);
    if (auto n = failures.due()) {
      spdlog::warn(
          "mail: cannot send {} to {} ({}); retrying in {} s{}", row.key, row.recipient,
          result.error, delay / 1000,
          *n > 1 ? " (" + std::to_string(*n) + " failures since the last report)" : std::string());
    }
  }
}

}  // namespace plateau::server
