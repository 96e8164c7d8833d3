#include "server/table_events.h"

#include <stdexcept>

#include "server/json_text.h"

namespace plateau::server {

store::EventRow encode_table_event(std::int64_t table_id, const Event& event) {
  nlohmann::json body = {{"v", 1}, {"type", event.type}, {"data", event.data}};
  if (!event.page.empty()) body["page"] = event.page;
  return {table_id, event.seq, event.type, json_text(body)};
}

Event decode_table_event(const store::EventRow& row) {
  try {
    const auto body = nlohmann::json::parse(row.body);
    if (body.value("v", 0) != 1) throw std::runtime_error("unknown event format");
    Event e;
    e.type = body.at("type").get<std::string>();
    e.data = body.at("data");
    e.page = body.value("page", std::string());
    e.seq = row.seq;
    return e;
  } catch (const std::exception& x) {
    throw std::runtime_error("event " + std::to_string(row.seq) + " cannot be read: " + x.what());
  }
}

void EventLog::append(Entry event) {
  events_.push_back(std::move(event));
  while (events_.size() > kept_) events_.pop_front();
}

std::optional<std::vector<EventLog::Entry>> EventLog::after(std::int64_t after,
                                                            std::int64_t last) const {
  std::vector<Entry> out;
  if (after >= last) return out;
  if (events_.empty() || first_seq() > after + 1) return std::nullopt;
  for (const auto& e : events_) {
    if (e->event().seq > after) out.push_back(e);
  }
  return out;
}

EventLog::Entry EventLog::move_of_ply(int ply) const {
  for (auto it = events_.rbegin(); it != events_.rend(); ++it) {
    const Event& e = (*it)->event();
    if (e.type == "move" && e.data.value("ply", -1) == ply) return *it;
  }
  return nullptr;
}

}  // namespace plateau::server
