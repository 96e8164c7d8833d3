// A message to one user as it crosses plateau_notices (src/server/user_notice.h): the payload a
// node writes, byte for byte, read back to the same event; everything else refused (the
// database is a trust boundary), never thrown; the node's budget of notices.
#include "server/user_notice.h"

#include <gtest/gtest.h>

#include <string>

#include "games/register.h"
#include "server/remote_feed.h"

namespace plateau::server {
namespace {

class UserNoticeTest : public ::testing::Test {
 protected:
  void SetUp() override { register_builtin_games(); }
};

const char* const kInviteText =
    "alice invites you to bohnduell 101: /table bohnduell 101 to go "
    "there.";

UserNotice invite() {
  return UserNotice{
      "bob",
      0,
      "a",
      "",
      0,
      Event{"invite",
            {{"game", "bohnduell"}, {"board", 101}, {"by", "alice"}, {"text", kInviteText}},
            {},
            0}};
}

TEST_F(UserNoticeTest, WritesTheInviteAsANodeDoes) {
  EXPECT_EQ(user_notice_payload(invite()),
            R"({"event":{"data":{"board":101,"by":"alice","game":"bohnduell","text":"alice )"
            R"(invites you to bohnduell 101: /table bohnduell 101 to go there."},"type":)"
            R"("invite"},"from":"a","kind":"user","to":"bob","v":1})");
}

TEST_F(UserNoticeTest, ReadsBackWhatItWrote) {
  UserNotice n = invite();
  n.skip_node = "b";
  n.skip_cid = 7;
  const std::string payload = user_notice_payload(n);
  EXPECT_EQ(payload.substr(payload.find(R"("from")")),
            R"("from":"a","kind":"user","skip":{"cid":7,"node":"b"},"to":"bob","v":1})");
  const auto back = parse_user_notice(payload);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->to, "bob");
  EXPECT_EQ(back->from, "a");
  EXPECT_EQ(back->skip_node, "b");
  EXPECT_EQ(back->skip_cid, 7u);
  EXPECT_EQ(back->event.type, "invite");
  EXPECT_EQ(back->event.data, n.event.data);
  EXPECT_EQ(back->event.page, "");
  EXPECT_EQ(back->event.seq, 0);
}

TEST_F(UserNoticeTest, ReadsEachEventATableSendsOneUser) {
  for (const std::string& event : {
           std::string(R"({"type":"queued","data":{"game":"phutball","board":102,"move":)"
                       R"("S4#5","dropped":true,"text":"Your queued move S4#5 at phutball 102 )"
                       R"(is dropped: the next move is #2."}})"),
           std::string(R"({"type":"queued","data":{"game":"biloba","board":3,"move":"resign",)"
                       R"("cancelled":true,"text":"Your queued resignation is cancelled."}})"),
           std::string(R"({"type":"error","data":{"message":"your queued move H1 at )"
                       R"(bohnduell 101 is illegal now: no seeds"}})"),
           std::string(R"({"type":"ok","data":{"text":"fine"}})"),
       }) {
    const std::string payload = R"({"v":1,"kind":"user","to":"guest12","from":"node-1.x",)"
                                R"("event":)" +
                                event + "}";
    const auto n = parse_user_notice(payload);
    ASSERT_TRUE(n) << payload;
    EXPECT_EQ(n->to, "guest12");
    // Written again, the same notice (keys in order).
    const auto again = parse_user_notice(user_notice_payload(*n));
    ASSERT_TRUE(again);
    EXPECT_EQ(again->event.data, n->event.data);
  }
}

TEST_F(UserNoticeTest, RefusesWhatANodeDoesNotWrite) {
  const std::string head = R"({"v":1,"kind":"user","to":"bob","from":"a","event":)";
  const std::string ok = R"({"type":"ok","data":{"text":"hi"}})";
  for (const std::string& bad : {
           std::string(""),
           std::string("garbage"),
           std::string("[1]"),
           std::string(R"({"v":1,"kind":"follow","to":"bob","from":"a","event":)") + ok + "}",
           std::string(R"({"v":2,"kind":"user","to":"bob","from":"a","event":)") + ok + "}",
           std::string(R"({"v":"1","kind":"user","to":"bob","from":"a","event":)") + ok + "}",
           std::string(R"({"v":1,"kind":"user","to":"b","from":"a","event":)") + ok + "}",
           std::string(R"({"v":1,"kind":"user","to":"bob x","from":"a","event":)") + ok + "}",
           std::string(R"({"v":1,"kind":"user","to":"bob","from":"a b","event":)") + ok + "}",
           std::string(R"({"v":1,"kind":"user","to":"bob","from":"","event":)") + ok + "}",
           std::string(R"({"v":1,"kind":"user","to":"bob","event":)") + ok + "}",
           std::string(R"({"v":1,"kind":"user","to":"bob","from":"a","more":1,"event":)") + ok +
               "}",
           std::string(R"({"v":1,"kind":"user","to":"bob","from":"a","skip":{"node":"b",)"
                       R"("cid":0},"event":)") +
               ok + "}",
           std::string(R"({"v":1,"kind":"user","to":"bob","from":"a","skip":{"node":"b",)"
                       R"("cid":-3},"event":)") +
               ok + "}",
           std::string(R"({"v":1,"kind":"user","to":"bob","from":"a","skip":{"node":"b"},)"
                       R"("event":)") +
               ok + "}",
           head + "}",
           head + R"({"type":"login","data":{"text":"hi"}}})",
           head + R"({"type":"ok","data":{"text":"hi"},"page":"x"}})",
           head + R"({"type":"ok","data":{"text":"hi","token":"t"}}})",
           head + R"({"type":"ok","data":{"text":""}}})",
           head + R"({"type":"ok","data":{"text":5}}})",
           head + R"({"type":"ok","data":{"text":"hi\nerror: forged"}}})",
           head + R"({"type":"ok","data":{"text":"hi\u001b[2J"}}})",
           head + R"({"type":"ok","data":{"text":")" + std::string(1001, 'x') + R"("}}})",
           head + R"({"type":"ok","data":["hi"]}})",
           head + R"({"type":"invite","data":{"game":"chess","board":101,"by":"alice",)"
                  R"("text":"hi"}}})",
           head + R"({"type":"invite","data":{"game":"bohnduell","board":0,"by":"alice",)"
                  R"("text":"hi"}}})",
           head + R"({"type":"invite","data":{"game":"bohnduell","board":4294967296,)"
                  R"("by":"alice","text":"hi"}}})",
           head + R"({"type":"invite","data":{"game":"bohnduell","board":101,"by":"a",)"
                  R"("text":"hi"}}})",
           head + R"({"type":"invite","data":{"game":"bohnduell","board":101,"text":"hi"}}})",
           head + R"({"type":"queued","data":{"game":"bohnduell","board":101,"move":"S4",)"
                  R"("text":"hi"}}})",  // neither dropped nor cancelled
           head + R"({"type":"queued","data":{"game":"bohnduell","board":101,"move":"S4",)"
                  R"("dropped":true,"cancelled":true,"text":"hi"}}})",
           head + R"({"type":"queued","data":{"game":"bohnduell","board":101,"move":"S4",)"
                  R"("dropped":false,"text":"hi"}}})",
       }) {
    EXPECT_FALSE(parse_user_notice(bad)) << bad;
  }
  // Longer than a notice may be (PostgreSQL's NOTIFY refuses 8000 bytes and more).
  EXPECT_FALSE(parse_user_notice(head + R"({"type":"ok","data":{"text":"hi"}})" +
                                 std::string(8000, ' ') + "}"));
}

TEST_F(UserNoticeTest, CarriesATableMessageToItsFollowers) {
  UserNotice n{"",
               12,
               "a",
               "b",
               3,
               ok_event("biloba 101: carol resigns; the computer plays "
                        "their pawns until the game ends.")};
  const std::string payload = user_notice_payload(n);
  EXPECT_EQ(payload, R"({"event":{"data":{"text":"biloba 101: carol resigns; the computer )"
                     R"(plays their pawns until the game ends."},"type":"ok"},"from":"a",)"
                     R"("kind":"table","skip":{"cid":3,"node":"b"},"table":12,"v":1})");
  const auto back = parse_user_notice(payload);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->table_id, 12);
  EXPECT_EQ(back->to, "");
  EXPECT_EQ(back->event.data, n.event.data);
  // Only ok and error go to a table's followers; a table id, not a user.
  n.event = Event{
      "queued",
      {{"game", "bohnduell"}, {"board", 101}, {"move", "S4"}, {"dropped", true}, {"text", "x"}},
      {},
      0};
  EXPECT_EQ(user_notice_payload(n), "");
  for (const std::string& bad : {
           std::string(R"({"v":1,"kind":"table","table":0,"from":"a","event":)"
                       R"({"type":"ok","data":{"text":"hi"}}})"),
           std::string(R"({"v":1,"kind":"table","table":"12","from":"a","event":)"
                       R"({"type":"ok","data":{"text":"hi"}}})"),
           std::string(R"({"v":1,"kind":"table","to":"bob","from":"a","event":)"
                       R"({"type":"ok","data":{"text":"hi"}}})"),
           std::string(R"({"v":1,"kind":"table","table":12,"to":"bob","from":"a","event":)"
                       R"({"type":"ok","data":{"text":"hi"}}})"),
           std::string(R"({"v":1,"kind":"table","table":12,"from":"a","event":{"type":)"
                       R"("invite","data":{"game":"bohnduell","board":101,"by":"alice",)"
                       R"("text":"hi"}}})"),
       }) {
    EXPECT_FALSE(parse_user_notice(bad)) << bad;
  }
}

TEST_F(UserNoticeTest, WritesNothingItWouldRefuse) {
  UserNotice n = invite();
  n.event.type = "login";
  EXPECT_EQ(user_notice_payload(n), "");
  n = invite();
  n.event.data["text"] = std::string(1001, 'x');
  EXPECT_EQ(user_notice_payload(n), "");
  n = invite();
  n.event.data["text"] = "two\nlines";
  EXPECT_EQ(user_notice_payload(n), "");
}

// A challenge's follow notice (remote_feed.h) may name the challenger's connection that heard
// it as its answer: that node leaves it out.
TEST_F(UserNoticeTest, AFollowNoticeMayNameTheConnectionToLeaveOut) {
  const std::string head =
      R"({"v":1,"kind":"follow","to":"alice","table":7,"game":"bohnduell","number":101,)"
      R"("after":0)";
  const auto n = RemoteFeed::parse_notice(head + R"(,"skip":{"cid":4,"node":"c"}})");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->skip_node, "c");
  EXPECT_EQ(n->skip_cid, 4u);
  const auto without = RemoteFeed::parse_notice(head + "}");
  ASSERT_TRUE(without);
  EXPECT_EQ(without->skip_node, "");
  EXPECT_EQ(without->skip_cid, 0u);
  for (const std::string& skip :
       {R"("skip":{"cid":0,"node":"c"})", R"("skip":{"cid":4})", R"("skip":{"cid":4,"node":"c d"})",
        R"("skip":{"node":"c"})", R"("skip":{"cid":"4","node":"c"})", R"("skip":[4,"c"])"}) {
    EXPECT_FALSE(RemoteFeed::parse_notice(head + "," + skip + "}")) << skip;
  }
}

TEST(NoticeBudget, TakesABurstThenRefuses) {
  NoticeBudget budget;
  int taken = 0;
  while (taken < 10000 && budget.take()) ++taken;
  // The burst, and what refilled while it was taken (2,000 a second: a few at most).
  EXPECT_GE(taken, 4000);
  EXPECT_LT(taken, 4100);
}

}  // namespace
}  // namespace plateau::server
