#include "server/record_answer.h"

#include <stdexcept>

#include "server/table_access.h"

namespace plateau::server {

using nlohmann::json;

bool record_request_ok(const RecordRequest& r) {
  return !r.game.empty() && r.game.size() <= kMaxRecordGameBytes && r.number > 0 &&
         r.key.size() <= kMaxRecordKeyBytes;
}

json record_request_json(const RecordRequest& r) {
  return json{{"record", {{"game", r.game}, {"number", r.number}, {"key", r.key}}}};
}

RecordRequest record_request_of(const json& frame) {
  auto r = frame.find("record");
  if (r == frame.end() || !r->is_object()) throw std::runtime_error("no record request");
  auto text = [&](const char* name) {
    auto it = r->find(name);
    if (it == r->end() || !it->is_string()) {
      throw std::runtime_error(std::string("a record request without ") + name);
    }
    return it->get<std::string>();
  };
  RecordRequest out;
  out.game = text("game");
  out.key = text("key");
  auto n = r->find("number");
  // A number past int's range is not a table either: checked before the conversion.
  if (n == r->end() || !n->is_number_integer() || n->get<std::int64_t>() < 1 ||
      n->get<std::int64_t>() > 999'999'999) {
    throw std::runtime_error("a record request without a board number");
  }
  out.number = static_cast<int>(n->get<std::int64_t>());
  if (!record_request_ok(out)) throw std::runtime_error("a record request out of bounds");
  return out;
}

json record_reply_json(const RecordAnswer& answer, std::size_t max_bytes) {
  switch (answer.kind) {
    case RecordAnswer::Kind::kRecord: {
      json j{{"record", answer.text}};
      std::size_t bytes = 0;
      try {
        bytes = j.dump().size();
      } catch (const json::exception&) {
        // Not UTF-8 (the edges validate every name and move, so never): it cannot cross.
        bytes = max_bytes + 1;
      }
      if (bytes > max_bytes) return json{{"too_large", bytes}};
      return j;
    }
    case RecordAnswer::Kind::kNotStarted:
      return json{{"not_started", true}};
    default:
      return json{{"missing", true}};
  }
}

RecordAnswer record_answer_of(const json& frame, const std::string& node) {
  RecordAnswer a;
  a.node = node;
  if (auto r = frame.find("record"); r != frame.end() && r->is_string()) {
    a.kind = RecordAnswer::Kind::kRecord;
    a.text = r->get<std::string>();
  } else if (auto ns = frame.find("not_started"); ns != frame.end() && ns->is_boolean()) {
    a.kind = RecordAnswer::Kind::kNotStarted;
  } else if (auto m = frame.find("missing"); m != frame.end() && m->is_boolean()) {
    a.kind = RecordAnswer::Kind::kMissing;
  } else if (auto tl = frame.find("too_large"); tl != frame.end() && tl->is_number_unsigned()) {
    a.kind = RecordAnswer::Kind::kTooLarge;
  } else {
    throw std::runtime_error("a malformed record answer");
  }
  return a;
}

RecordResponse http_record_response(const RecordAnswer& answer, const std::string& game,
                                    int number) {
  const std::string board = game + " " + std::to_string(number);
  switch (answer.kind) {
    case RecordAnswer::Kind::kRecord:
      return {200, answer.text};
    case RecordAnswer::Kind::kNotStarted:
      return {404, "the game has not started\n"};
    case RecordAnswer::Kind::kMissing:
      return {404, std::string(kNoSuchRecord)};
    case RecordAnswer::Kind::kBusy:
      return {503, "busy, try again\n"};
    case RecordAnswer::Kind::kUnreachable:
      return {503, "the node serving " + board + " cannot be reached now: try again\n"};
    case RecordAnswer::Kind::kTooLarge:
      return {503, "the record of " + board +
                       " is too large to be sent between nodes: read it on the node serving it (" +
                       answer.node + ")\n"};
  }
  return {404, std::string(kNoSuchRecord)};
}

}  // namespace plateau::server
