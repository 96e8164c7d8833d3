// What the event feed accepts from the database (src/cluster/event_feed.h parse_batch_notice,
// src/server/remote_feed.h RemoteFeed::parse_notice): the database is a trust boundary, so a
// payload another process wrote is checked before it is used, and a bad one is refused (the
// feed logs and drops it) rather than thrown or half-read.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace plateau
