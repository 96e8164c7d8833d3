#include "server/notifier.h"

#include <set>

#include "core/text.h"
#include "server/client.h"
#include "server/event.h"

namespace plateau::server {

bool TableServices::connected(const std::string& user) const {
  for (const auto& c : clients_of(user)) {
    if (!c->by_mail()) return true;
  }
  return online_elsewhere(user);
}

ActionFacts action_facts(const std::vector<const Event*>& events) {
  ActionFacts f;
  for (const Event* e : events) {
    if (e->type == "challenge") {
      f.created = true;
    } else if (e->type == "start") {
      f.started = true;
    } else if (e->type == "move" || e->type == "board") {
      f.turned = true;
    } else if (e->type == "gameover") {
      f.ended = true;
    } else if (e->type == "request" && !e->data.contains("answer")) {
      f.requesters.push_back(e->data.value("by", std::string()));
    }
  }
  return f;
}

std::vector<std::string> recipients(const TableNotice& notice, const ActionFacts& facts,
                                    const std::function<std::string(const std::string&)>& notify_of) {
  std::vector<std::string> out;
  if (!notice.nag_user.empty()) {
    if (notice.by_mail || notify_of(notice.nag_user) != kNotifyOff) out.push_back(notice.nag_user);
    return out;
  }
  std::set<std::string> seen;
  for (const auto& p : notice.players) {
    if (!seen.insert(to_lower(p)).second) continue;
    if (notice.by_mail) {
      out.push_back(p);
      continue;
    }
    if (notify_of(p) != kNotifyEvery) continue;
    if (notice.connected && notice.connected(p)) continue;
    bool asked_by_other = false;
    for (const auto& r : facts.requesters) asked_by_other = asked_by_other || to_lower(r) != to_lower(p);
    const bool your_turn = facts.turned && to_lower(notice.next_user) == to_lower(p);
    if (facts.created || facts.started || facts.ended || asked_by_other || your_turn) {
      out.push_back(p);
    }
  }
  return out;
}

std::string digest_body(const std::string& user, const std::vector<WaitingBoard>& boards) {
  std::string body = "Good day, " + user + ". " +
                     (boards.size() == 1 ? std::string("One board waits")
                                         : std::to_string(boards.size()) + " boards wait") +
                     " for your move:\n\n";
  for (const auto& b : boards) {
    body += b.label + ": your move since " + utc_minute(b.since_ms) + " (" + b.title + ")\n";
  }
  body +=
      "\nYou get this list once a day (notify digest). `notify every` mails each event instead, "
      "`notify off` nothing.\n";
  return body;
}

}  // namespace plateau::server
