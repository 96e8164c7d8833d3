// What the event feed accepts from the database (src/cluster/event_feed.h parse_batch_notice,
// src/server/remote_feed.h RemoteFeed::parse_notice): the database is a trust boundary, so a
// payload another process wrote is checked before it is used, and a bad one is refused (the
// feed logs and drops it) rather than thrown or half-read.
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>
#include <string>

#include "cluster/event_feed.h"
#include "games/register.h"
#include "server/remote_feed.h"

namespace plateau {
namespace {

TEST(BatchNotice, ReadsTheFourNumbers) {
  const auto n = cluster::parse_batch_notice("12,5,7,3");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->table_id, 12);
  EXPECT_EQ(n->first_seq, 5);
  EXPECT_EQ(n->last_seq, 7);
  EXPECT_EQ(n->epoch, 3);
  const auto single = cluster::parse_batch_notice("1,1,1,0");  // a single server: epoch 0
  ASSERT_TRUE(single);
  EXPECT_EQ(single->epoch, 0);
}

TEST(BatchNotice, RefusesAnythingElse) {
  for (const char* bad : {"", "12", "12,5,7", "12,5,7,3,", "12,5,7,3,1", " 12,5,7,3", "12,5,7,3 ",
                          "12;5;7;3", "0,1,1,1", "-1,1,1,1", "12,0,1,1", "12,7,5,1", "12,5,7,-3",
                          "a,5,7,3", "12,5,7,x", "99999999999999999999,1,1,1", "12,+5,7,3"}) {
    EXPECT_FALSE(cluster::parse_batch_notice(bad)) << bad;
  }
  EXPECT_FALSE(cluster::parse_batch_notice(std::string(200, '1')));
}

class FollowNotice : public ::testing::Test {
 protected:
  void SetUp() override { register_builtin_games(); }
};

TEST_F(FollowNotice, ReadsAFollowNotice) {
  const auto n = server::RemoteFeed::parse_notice(
      R"({"v":1,"kind":"follow","to":"carol","table":7,"game":"bohnduell","number":101,"after":0})");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->to, "carol");
  EXPECT_EQ(n->table_id, 7);
  EXPECT_EQ(n->game, "bohnduell");
  EXPECT_EQ(n->number, 101);
  EXPECT_EQ(n->after, 0);
}

TEST_F(FollowNotice, RefusesBadOrForeignPayloads) {
  const std::string good_tail = R"("table":7,"game":"bohnduell","number":101,"after":0})";
  for (const std::string& bad : {
           std::string(""),
           std::string("garbage"),
           std::string("[1,2]"),
           std::string(R"({"v":2,"kind":"follow","to":"carol",)") + good_tail,
           std::string(R"({"v":1,"kind":"shout","to":"carol",)") + good_tail,
           std::string(R"({"v":1,"kind":"follow","to":"c",)") + good_tail,  // not a user name
           std::string(R"({"v":1,"kind":"follow","to":"carol; DROP",)") + good_tail,
           std::string(R"({"v":1,"kind":"follow","to":5,)") + good_tail,
           std::string(R"({"v":1,"kind":"follow","to":"carol","table":0,"game":"bohnduell",)"
                       R"("number":101,"after":0})"),
           std::string(R"({"v":1,"kind":"follow","to":"carol","table":7,"game":"chess",)"
                       R"("number":101,"after":0})"),
           std::string(R"({"v":1,"kind":"follow","to":"carol","table":7,"game":"bohnduell",)"
                       R"("number":4294967296,"after":0})"),
           std::string(R"({"v":1,"kind":"follow","to":"carol","table":7,"game":"bohnduell",)"
                       R"("number":101,"after":-1})"),
           std::string(R"({"v":1,"kind":"follow","to":"carol","table":7,"game":"bohnduell",)"
                       R"("number":101})"),
           std::string(R"({"v":1,"kind":"follow","to":"carol","table":"7","game":"bohnduell",)"
                       R"("number":101,"after":0})"),
       }) {
    EXPECT_FALSE(server::RemoteFeed::parse_notice(bad)) << bad;
  }
  // Longer than a notice may be (PostgreSQL's NOTIFY refuses 8000 bytes and more).
  EXPECT_FALSE(server::RemoteFeed::parse_notice(R"({"v":1,"kind":"follow","to":"carol",)" +
                                                good_tail + std::string(8000, ' ')));
}

// A sink for a feed that never starts (publish only fills its outbox).
class IdleSink : public cluster::FeedSink {
 public:
  std::optional<std::int64_t> cursor(std::int64_t) override { return std::nullopt; }
  void deliver(std::int64_t, std::vector<store::EventRow>) override {}
  std::vector<std::int64_t> followed() override { return {}; }
  void notice(const std::string&) override {}
  bool online(const std::string&) override { return false; }
  std::vector<std::string> online_names() override { return {}; }
  std::string listing() override { return "[]"; }
  void round(store::pg::Connection&, bool) override {}
};

// The database unreachable while strangers /invite (attack2 found it): the outbox holds 10,000
// notices, and each one more used to write a log line of its own.
TEST(EventFeedPublish, ANotDeliveredFloodWritesOneLineASecond) {
  std::ostringstream log;
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(std::make_shared<spdlog::logger>(
      "test", std::make_shared<spdlog::sinks::ostream_sink_mt>(log)));
  {
    IdleSink sink;
    cluster::EventFeed feed({"postgresql://127.0.0.1:1/none", "a"}, sink);
    for (int i = 0; i < 15000; ++i) feed.publish(R"({"v":1})");
  }
  spdlog::set_default_logger(previous);
  const std::string text = log.str();
  std::size_t lines = 0;
  for (std::size_t at = 0; (at = text.find("too many notices waiting", at)) != std::string::npos;
       ++at) {
    ++lines;
  }
  EXPECT_EQ(lines, 1u) << text;
  EXPECT_NE(text.find("node a: too many notices waiting; 1 dropped since the last report"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace plateau
