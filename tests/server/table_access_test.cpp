#include "server/table_access.h"

#include <gtest/gtest.h>

namespace plateau::server {
namespace {

TableAccess invisible_table() {
  TableAccess a;
  a.invisible = true;
  a.host = "Alice";
  a.seated = {"Bob"};
  a.invited = {"carol"};
  a.record_key = "0123456789abcdef0123456789abcdef";
  return a;
}

TEST(TableAccess, VisibleTablesAreOpenToEveryone) {
  TableAccess a = invisible_table();
  a.invisible = false;
  EXPECT_TRUE(may_reach(a, ""));
  EXPECT_TRUE(may_reach(a, "mallory"));
}

TEST(TableAccess, InvisibleTablesOnlyForPlayersHostAndInvitees) {
  const TableAccess a = invisible_table();
  EXPECT_TRUE(may_reach(a, "alice"));  // names are case-insensitive
  EXPECT_TRUE(may_reach(a, "BOB"));
  EXPECT_TRUE(may_reach(a, "Carol"));
  EXPECT_FALSE(may_reach(a, "mallory"));
  EXPECT_FALSE(may_reach(a, ""));  // not logged in
  EXPECT_FALSE(may_reach(a, "alic"));
}

TEST(TableAccess, UnknownTableErrorsAreTheLobbysOwn) {
  Command c;
  EXPECT_EQ(unknown_table_error(c),
            "you are at no table: give a board number, or /open GAME, /table N");
  c.board = 101;
  EXPECT_EQ(unknown_table_error(c), "no board 101");
  c.game = "bohnduell";
  EXPECT_EQ(unknown_table_error(c), "no bohnduell board 101");
}

TEST(TableAccess, RecordKeys) {
  const std::string k = new_record_key();
  EXPECT_EQ(k.size(), 32u);
  EXPECT_EQ(k.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(k, new_record_key());
  TableAccess a = invisible_table();
  EXPECT_TRUE(record_key_matches(a, "0123456789abcdef0123456789abcdef"));
  EXPECT_FALSE(record_key_matches(a, "0123456789abcdef0123456789abcdee"));
  EXPECT_FALSE(record_key_matches(a, "0123456789abcdef"));
  EXPECT_FALSE(record_key_matches(a, ""));
  a.record_key.clear();
  EXPECT_FALSE(record_key_matches(a, ""));  // a table without a key has no secret URL
}

}  // namespace
}  // namespace plateau::server
