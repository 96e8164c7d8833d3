// GET /records of another node's table (src/server/record_answer.h; docs/CLUSTER.md
// "Forwarding"): the link frames' checks and bounds, and the HTTP response of each answer
// (the same for a local table and a remote one).
#include "server/record_answer.h"

#include <gtest/gtest.h>

namespace plateau::server {
namespace {

using nlohmann::json;
using Kind = RecordAnswer::Kind;

RecordAnswer record(std::string text) {
  RecordAnswer a;
  a.kind = Kind::kRecord;
  a.text = std::move(text);
  return a;
}

TEST(RecordRequest, RoundTripsThroughItsFrame) {
  const RecordRequest r{"bohnduell", 101, std::string(32, 'a')};
  const RecordRequest back = record_request_of(record_request_json(r));
  EXPECT_EQ(back.game, "bohnduell");
  EXPECT_EQ(back.number, 101);
  EXPECT_EQ(back.key, r.key);
  EXPECT_EQ(record_request_of(record_request_json({"phutball", 999'999'999, ""})).number,
            999'999'999);
}

TEST(RecordRequest, ABadFrameThrows) {
  const json good = record_request_json({"bohnduell", 101, ""});
  for (const char* field : {"game", "number", "key"}) {
    json bad = good;
    bad["record"].erase(field);
    EXPECT_THROW(record_request_of(bad), std::runtime_error) << field;
  }
  for (const json& value : {json(nullptr), json(1), json("x"), json::array(), json::object()}) {
    EXPECT_THROW(record_request_of(json{{"record", value}}), std::runtime_error) << value;
  }
  EXPECT_THROW(record_request_of(json::object()), std::runtime_error);
  auto with = [&](const char* field, json value) {
    json j = good;
    j["record"][field] = std::move(value);
    return j;
  };
  for (const json& n : {json(0), json(-1), json(1'000'000'000), json(std::int64_t{1} << 40),
                        json(1.5), json("101"), json(true)}) {
    EXPECT_THROW(record_request_of(with("number", n)), std::runtime_error) << n;
  }
  EXPECT_THROW(record_request_of(with("game", "")), std::runtime_error);
  EXPECT_THROW(record_request_of(with("game", std::string(kMaxRecordGameBytes + 1, 'g'))),
               std::runtime_error);
  EXPECT_NO_THROW(record_request_of(with("game", std::string(kMaxRecordGameBytes, 'g'))));
  EXPECT_THROW(record_request_of(with("key", std::string(kMaxRecordKeyBytes + 1, 'k'))),
               std::runtime_error);
  EXPECT_NO_THROW(record_request_of(with("key", std::string(kMaxRecordKeyBytes, 'k'))));
  EXPECT_THROW(record_request_of(with("key", 5)), std::runtime_error);
}

TEST(RecordRequest, BoundsNameNoTable) {
  EXPECT_TRUE(record_request_ok({"bohnduell", 1, ""}));
  EXPECT_FALSE(record_request_ok({"bohnduell", 0, ""}));
  EXPECT_FALSE(record_request_ok({"", 1, ""}));
  EXPECT_FALSE(record_request_ok({std::string(kMaxRecordGameBytes + 1, 'g'), 1, ""}));
  EXPECT_FALSE(record_request_ok({"bohnduell", 1, std::string(kMaxRecordKeyBytes + 1, 'k')}));
}

TEST(RecordReply, EachAnswerRoundTrips) {
  const std::string text = "[Game \"bohnduell\"]\n[Seats \"alice,bob\"]\n\n1. A 2. \"B\"\n";
  const RecordAnswer got = record_answer_of(record_reply_json(record(text)), "a");
  EXPECT_EQ(got.kind, Kind::kRecord);
  EXPECT_EQ(got.text, text);
  RecordAnswer a;
  a.kind = Kind::kNotStarted;
  EXPECT_EQ(record_answer_of(record_reply_json(a), "a").kind, Kind::kNotStarted);
  a.kind = Kind::kMissing;
  EXPECT_EQ(record_answer_of(record_reply_json(a), "a").kind, Kind::kMissing);
  // The home node's own answers never cross the link: sent, they say "missing".
  a.kind = Kind::kBusy;
  EXPECT_EQ(record_reply_json(a), (json{{"missing", true}}));
}

TEST(RecordReply, ARecordPastTheFrameBoundIsTooLarge) {
  const std::string text(1000, 'x');
  const std::size_t bytes = json{{"record", text}}.dump().size();
  EXPECT_EQ(record_reply_json(record(text), bytes), (json{{"record", text}}));
  const json over = record_reply_json(record(text), bytes - 1);
  EXPECT_EQ(over, (json{{"too_large", bytes}}));
  const RecordAnswer got = record_answer_of(over, "a");
  EXPECT_EQ(got.kind, Kind::kTooLarge);
  EXPECT_EQ(got.node, "a");
  // Escapes count: a record of quotes and newlines takes twice its length in JSON.
  const std::string escaped(600, '"');
  EXPECT_EQ(record_reply_json(record(escaped), 1000).count("too_large"), 1u);
  // Not UTF-8 (never given by the edges) cannot cross either, and does not throw.
  EXPECT_EQ(record_reply_json(record("\xff\xfe")).count("too_large"), 1u);
  // The default bound leaves room in a link frame for "t", "id" and the MAC.
  EXPECT_LE(kMaxRecordFrameBytes + 4096, cluster::kMaxLinkFrame);
  EXPECT_EQ(record_reply_json(record(std::string(kMaxRecordFrameBytes, 'x'))).count("too_large"),
            1u);
}

TEST(RecordReply, AMalformedAnswerThrows) {
  for (const json& bad : {json::object(), json{{"record", 5}}, json{{"missing", "yes"}},
                          json{{"too_large", -1}}, json{{"not_started", 1}}}) {
    EXPECT_THROW(record_answer_of(bad, "a"), std::runtime_error) << bad;
  }
}

TEST(RecordResponse, EachAnswerHasItsStatusAndLine) {
  EXPECT_EQ(http_record_response(record("R\n"), "bohnduell", 101).status, 200);
  EXPECT_EQ(http_record_response(record("R\n"), "bohnduell", 101).body, "R\n");
  RecordAnswer a;
  auto response = [&](Kind k) {
    a.kind = k;
    a.node = "a";
    return http_record_response(a, "bohnduell", 101);
  };
  EXPECT_EQ(response(Kind::kNotStarted).status, 404);
  EXPECT_EQ(response(Kind::kNotStarted).body, "the game has not started\n");
  EXPECT_EQ(response(Kind::kMissing).status, 404);
  EXPECT_EQ(response(Kind::kMissing).body, "no such record\n");
  EXPECT_EQ(response(Kind::kBusy).status, 503);
  EXPECT_EQ(response(Kind::kBusy).body, "busy, try again\n");
  EXPECT_EQ(response(Kind::kUnreachable).status, 503);
  EXPECT_EQ(response(Kind::kUnreachable).body,
            "the node serving bohnduell 101 cannot be reached now: try again\n");
  EXPECT_EQ(response(Kind::kTooLarge).status, 503);
  EXPECT_EQ(response(Kind::kTooLarge).body,
            "the record of bohnduell 101 is too large to be sent between nodes: read it on the "
            "node serving it (a)\n");
}

}  // namespace
}  // namespace plateau::server
