#pragma once
// GET /records/GAME/NUMBER (docs/PROTOCOL.md) on any node of a cluster (issue 16 item 2;
// docs/CLUSTER.md "Forwarding"): what a record fetch answers, local or from the table's owner
// over the node link, and the link frames that carry it. The lobby fetches
// (lobby_records.cpp), the HTTP session turns the answer into its response
// (http_record_response), so that a remote table's record reads exactly as a local one's.
//
// The frames, checked on arrival (a bad one throws, which closes that link: node_link.h):
//   request  {"record":{"game":G,"number":N,"key":K}}   the HTTP node -> the owner
//   done     {"record":TEXT} | {"not_started":true} | {"missing":true} | {"too_large":BYTES}
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "cluster/link_auth.h"

namespace plateau::server {

struct RecordAnswer {
  enum class Kind {
    kRecord,       // text: the record (core/record.h)
    kNotStarted,   // the table exists (and may be read) but its game has not started
    kMissing,      // no such table, or an invisible one without its key: the same answer
    kBusy,         // the owner could not be looked up now (lookup budget, feed full or down)
    kUnreachable,  // node: the owner, which did not answer (down, frozen, the link cut)
    kTooLarge,     // node: the owner, whose record would not fit in one link frame
  };
  Kind kind = Kind::kMissing;
  std::string text;  // kRecord
  std::string node;  // kUnreachable, kTooLarge
};

// A request's fields, and their bounds: longer, or a number < 1, is not a table (the HTTP node
// answers kMissing without asking; the owner cuts a link that sends one).
constexpr std::size_t kMaxRecordGameBytes = 32;
constexpr std::size_t kMaxRecordKeyBytes = 64;  // keys are 32 hex digits (table_access.h)
// The record's done frame, its JSON text, at most: the link's frame bound less room for "t",
// "id" and the MAC. A record that long (hundreds of thousands of plies) is kTooLarge remotely.
constexpr std::size_t kMaxRecordFrameBytes = cluster::kMaxLinkFrame - 4096;

struct RecordRequest {
  std::string game;
  int number = 0;
  std::string key;  // "" for none
};

// True if `r` may name a table (within the bounds above).
bool record_request_ok(const RecordRequest& r);
// The request frame's fields for `r`.
nlohmann::json record_request_json(const RecordRequest& r);
// The request in `frame` (its "record" object). Throws std::runtime_error saying what is wrong
// when a field is missing, of the wrong type or out of bounds.
RecordRequest record_request_of(const nlohmann::json& frame);

// The done frame's fields for `answer` (kRecord, kNotStarted or kMissing; anything else is
// sent as kMissing). A record whose frame would pass `max_bytes` (or cannot be JSON, which
// validated input never gives) is sent as {"too_large":BYTES}.
nlohmann::json record_reply_json(const RecordAnswer& answer,
                                 std::size_t max_bytes = kMaxRecordFrameBytes);
// The answer in done frame `frame` from node `node`. Throws std::runtime_error on a malformed
// frame (none of the four forms).
RecordAnswer record_answer_of(const nlohmann::json& frame, const std::string& node);

// The HTTP response for `answer` about (game, number): its status code and body (text/plain).
struct RecordResponse {
  int status = 404;
  std::string body;
};
RecordResponse http_record_response(const RecordAnswer& answer, const std::string& game,
                                    int number);

}  // namespace plateau::server
