#include "cli/store_copy.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <stdexcept>

#include "core/record.h"
#include "core/registry.h"
#include "store/store_url.h"

namespace plateau::cli {

namespace {

using store::Snapshot;

std::string describe_rows(const Snapshot& s) {
  return std::to_string(s.accounts.size()) + " accounts, " + std::to_string(s.tables.size()) +
         " tables, " + std::to_string(s.ratings.size()) + " ratings, " +
         std::to_string(s.counters.size()) + " counters, " + std::to_string(s.tokens.size()) +
         " resume tokens, " + std::to_string(s.outbox.size()) + " mails, " +
         std::to_string(s.vacations.size()) + " vacations, " +
         std::to_string(s.mail_seen.size()) + " mails run, " + std::to_string(s.nodes.size()) +
         " nodes";
}

bool empty(const Snapshot& s) {
  return s.accounts.empty() && s.tables.empty() && s.ratings.empty() && s.counters.empty() &&
         s.tokens.empty() && s.outbox.empty() && s.vacations.empty() &&
         s.mail_seen.empty() && s.nodes.empty();
}

store::Batch everything(const Snapshot& s) {
  store::Batch b;
  for (const auto& r : s.accounts) b.put_account(r);
  for (const auto& r : s.ratings) b.put_rating(r);
  for (const auto& [name, value] : s.counters) b.put_counter(name, value);
  for (const auto& r : s.tables) b.put_table(r);  // before the rows that refer to them
  for (const auto& [id, rows] : s.moves)
    for (const auto& r : rows) b.add_move(r);
  for (const auto& [id, rows] : s.chat)
    for (const auto& r : rows) b.add_chat(r);
  for (const auto& [id, rows] : s.events)
    for (const auto& r : rows) b.add_event(r);
  for (const auto& r : s.tokens) b.put_token(r);
  for (const auto& r : s.outbox) b.add_mail(r);
  for (const auto& r : s.vacations) b.put_vacation(r);
  for (const auto& r : s.mail_seen) b.put_mail_seen(r);
  for (const auto& r : s.nodes) b.put_node(r);
  return b;
}

// The first difference between the source and the copy read back, or "".
std::string first_difference(const Snapshot& a, const Snapshot& b) {
  if (a.accounts != b.accounts) return "accounts";
  if (a.ratings != b.ratings) return "ratings";
  if (a.counters != b.counters) return "counters";
  if (a.tables != b.tables) return "tables";
  if (a.moves != b.moves) return "moves";
  if (a.chat != b.chat) return "chat";
  if (a.events != b.events) return "table events";
  if (a.tokens != b.tokens) return "resume tokens";
  if (a.outbox != b.outbox) return "mail outbox";
  if (a.vacations != b.vacations) return "vacations";
  if (a.mail_seen != b.mail_seen) return "inbound mail run";
  if (a.nodes != b.nodes) return "nodes";
  if (a.alive_ms != b.alive_ms) return "the time the server was last alive";
  // A kind of row added to the Snapshot since this was written, and not copied above.
  if (!(a == b)) return "rows this copy does not know (src/cli/store_copy.cpp)";
  return "";
}

// The final position of a started table, replayed from its stored moves and then from its
// record, as the server's snapshot reader sees the game (server/table_snapshot.cpp: "options",
// "initial", and a Biloba game stored before snapshot version 3 keeping no_progress=0).
// "" for a table in set-up. Throws std::runtime_error naming the table if it does not replay.
std::string final_position(const store::TableRow& row, const std::vector<store::MoveRow>& moves) {
  try {
    const nlohmann::json j = nlohmann::json::parse(row.data);
    if (j.value("status", std::string("setup")) == "setup") {
      if (!moves.empty()) throw std::runtime_error("moves stored for a table in set-up");
      return "";
    }
    std::string options = j.value("options", std::string());
    if (row.game == "biloba" && j.value("v", 1) < 3 &&
        options.find("no_progress=") == std::string::npos) {
      options = options.empty() ? "no_progress=0" : options + ",no_progress=0";
    }
    auto game = make_game(row.game, options);
    const std::string initial_text = j.value("initial", std::string());
    auto initial = initial_text.empty() ? game->initial_state() : game->parse_state(initial_text);
    auto state = initial->clone();
    std::vector<Move> played;
    for (const auto& m : moves) {
      played.push_back(state->parse_move(m.move));
      state->apply(played.back());
    }
    // The record a player downloads must load to the same position.
    ReplayedGame replayed = load_record(write_record(*initial, played));
    if (!replayed.state->equals(*state))
      throw std::runtime_error("its record replays to another position");
    return state->serialize();
  } catch (const std::exception& e) {
    throw std::runtime_error("table " + row.game + " " + std::to_string(row.number) +
                             " (id " + std::to_string(row.id) + ") does not replay: " + e.what());
  }
}

}  // namespace

CopyReport copy_store(const std::string& from, const std::string& to) {
  const std::string from_text = store::printable_store_url(from);
  const std::string to_text = store::printable_store_url(to);
  if (from == to) throw std::runtime_error("--from and --to are the same store (" + to_text + ")");
  std::unique_ptr<store::Backend> source = store::open_backend(from);
  const Snapshot snap = source->load();
  std::unique_ptr<store::Backend> target = store::open_backend(to);
  if (const Snapshot there = target->load(1); !empty(there)) {
    throw std::runtime_error("the target " + to_text + " is not empty (" + describe_rows(there) +
                             "); nothing copied");
  }
  // One transaction: all or nothing. The source's last sign of life goes with it, so that a
  // server started on the copy gives the clocks back their downtime as on the original.
  const store::Batch batch = everything(snap);
  const store::Batch* group[] = {&batch};
  store::GroupOutcome out = target->commit_group(group, snap.alive_ms);
  if (std::exception_ptr e = out.commit_error ? out.commit_error : out.batch_errors.at(0)) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      throw std::runtime_error("cannot write to " + to_text + ": " + x.what() +
                               " (nothing copied)");
    }
  }

  // Read back through a new connection, as a server started on the target would.
  target.reset();
  const Snapshot copy = store::open_backend(to)->load();
  if (std::string what = first_difference(snap, copy); !what.empty()) {
    throw std::runtime_error("the copy in " + to_text + " differs from " + from_text + " in " +
                             what);
  }
  CopyReport report{snap.accounts.size(), snap.ratings.size(), snap.counters.size(),
                    snap.tables.size(),   0,                     0,
                    0,                    snap.tokens.size(),    snap.outbox.size(),
                    snap.vacations.size(), snap.mail_seen.size(), snap.nodes.size()};
  for (const auto& [id, rows] : snap.moves) report.moves += rows.size();
  for (const auto& [id, rows] : snap.chat) report.chat += rows.size();
  for (const auto& [id, rows] : snap.events) report.events += rows.size();
  static const std::vector<store::MoveRow> kNone;
  for (std::size_t i = 0; i < snap.tables.size(); ++i) {
    const auto& row = snap.tables[i];
    auto a = snap.moves.find(row.id);
    auto b = copy.moves.find(row.id);
    const std::string before = final_position(row, a == snap.moves.end() ? kNone : a->second);
    const std::string after =
        final_position(copy.tables[i], b == copy.moves.end() ? kNone : b->second);
    if (before != after) {
      throw std::runtime_error("table " + row.game + " " + std::to_string(row.number) +
                               " replays to another position from the copy");
    }
    ++(before.empty() ? report.games_in_setup : report.games_replayed);
  }
  return report;
}

}  // namespace plateau::cli
