// GET /records/GAME/NUMBER of a table any node serves (issue 16 item 2; docs/CLUSTER.md
// "Forwarding"; the frames and answers in record_answer.h), both ends:
//   - the node the request reached: its own table's record; else it finds the table's owner as
//     a forwarded command does (the owner cache, the lookup budget, the database read on the
//     event feed's thread, never on an I/O thread) and asks it over the node link;
//   - the owner (Lobby::serve_forwarded, local_only): its table's record, or why there is none.
// The HTTP session turns either answer into the same response (http_record_response).
#include "cluster/cluster_db.h"
#include "server/lobby_forwarding.h"
#include "server/remote_feed.h"
#include "server/table_access.h"

namespace plateau::server {

using namespace forwarding;

namespace {

using Kind = RecordAnswer::Kind;

RecordAnswer answer_of(Kind kind, std::string node = {}) {
  RecordAnswer a;
  a.kind = kind;
  a.node = std::move(node);
  return a;
}

}  // namespace

void Lobby::fetch_record(const RecordRequest& r, bool local_only,
                         std::function<void(RecordAnswer)> done) {
  if (auto table = find_table(r.game, r.number)) {
    // Served here: only here (a table has one owner), so a hidden one is missing everywhere.
    const TableAccess access = table->summary().access;
    if (access.invisible && !record_key_matches(access, r.key)) {
      done(answer_of(Kind::kMissing));
      return;
    }
    table->fetch_record([done](std::string record) {
      if (record.empty()) {
        done(answer_of(Kind::kNotStarted));
        return;
      }
      RecordAnswer a = answer_of(Kind::kRecord);
      a.text = std::move(record);
      done(std::move(a));
    });
    return;
  }
  if (local_only || !link_ || !node_ || !forwarding_ || !remote_feed_ || !record_request_ok(r)) {
    done(answer_of(Kind::kMissing));
    return;
  }
  // Asks `owners`' one owner of r.game (none, or only this node: missing) over the link. Runs on
  // this thread or the feed's; copies what it needs, so that it never touches the lobby.
  auto ask = [link = link_, self = node_id(), fwd = forwarding_](
                 const RecordRequest& r, OwnerCache::Owners owners,
                 const std::function<void(RecordAnswer)>& done) {
    std::erase_if(owners, [&](const auto& o) { return o.first != r.game || o.second.id == self; });
    if (owners.empty()) {
      done(answer_of(Kind::kMissing));
      return;
    }
    const store::NodeRow owner = owners.front().second;
    spdlog::debug("records: {} {} asked of node {}", r.game, r.number, owner.id);
    link->request(
        owner.id, host_of(owner.address), owner.node_port, record_request_json(r),
        [](const json&) {
          // The owner answers a record with "done" only: cut the link (its on_fail answers).
          throw std::runtime_error("an event in a record's answer");
        },
        [done, peer = owner.id](const json& frame) {
          RecordAnswer a;
          try {
            a = record_answer_of(frame, peer);
          } catch (const std::exception&) {
            // The link is cut (the throw below) after the request ended: answer it here.
            done(answer_of(Kind::kUnreachable, peer));
            throw;
          }
          done(std::move(a));
        },
        [fwd, done, r, peer = owner.id](cluster::LinkFailure, const std::string& why) {
          spdlog::warn("records: {} {} from node {}: {}", r.game, r.number, peer, why);
          fwd->forget_owner(r.number, peer);  // read again next time
          done(answer_of(Kind::kUnreachable, peer));
        });
  };
  std::optional<OwnerCache::Owners> known;
  {
    std::lock_guard lock(forwarding_->mutex);
    known = forwarding_->owners.find(r.number, Clock::now());
    // The lookup budget is the forwarded commands' too: a stranger naming board after board
    // by URL keeps the database no busier than one doing it with `show`.
    if (!known && !forwarding_->take_lookup()) {
      done(answer_of(Kind::kBusy));
      return;
    }
  }
  if (known) {
    ask(r, std::move(*known), done);
    return;
  }
  const bool queued = remote_feed_->run_on_feed([fwd = forwarding_, r, done,
                                                 ask](cluster::Connection* db) {
    if (!db) {  // the database cannot be reached now
      done(answer_of(Kind::kBusy));
      return;
    }
    OwnerCache::Owners owners;
    try {
      owners = cluster::owners_of_number(*db, r.number);
    } catch (const std::exception& e) {
      spdlog::warn("records: the owner of {} {} could not be read: {}", r.game, r.number, e.what());
      done(answer_of(Kind::kBusy));
      return;
    }
    fwd->remember(r.number, owners);
    ask(r, std::move(owners), done);
  });
  if (!queued) done(answer_of(Kind::kBusy));
}

}  // namespace plateau::server
