// The mail forms of `notify` and `vacation` (docs/MAIL.md): the account's own settings, with
// the credentials inline and no board.
#include <gtest/gtest.h>

#include "server/mail_session.h"

namespace plateau::server {
namespace {

TEST(MailCommand, NotifyAndVacationTakeCredentialsAndNoBoard) {
  MailCommand n = rewrite_subject("phutball notify alice secret123 digest");
  EXPECT_EQ(n.kind, MailCommand::Kind::kCredentials);
  EXPECT_EQ(n.user, "alice");
  EXPECT_EQ(n.password, "secret123");
  EXPECT_EQ(n.line, "notify digest");
  EXPECT_FALSE(n.board.has_value());
  EXPECT_FALSE(n.takes_comment);
  MailCommand v = rewrite_subject("Vacation bob pw-bob-123 5");
  EXPECT_EQ(v.kind, MailCommand::Kind::kCredentials);
  EXPECT_EQ(v.line, "vacation 5");
  EXPECT_EQ(rewrite_subject("notify bob pw-bob-123").line, "notify");
  MailCommand bad = rewrite_subject("notify bob");
  EXPECT_EQ(bad.kind, MailCommand::Kind::kError);
  EXPECT_EQ(bad.error, "usage: notify USERID PASSWORD [every|digest|off]");
  EXPECT_EQ(rewrite_subject("vacation bob pw 5 6").error, "usage: vacation USERID PASSWORD [DAYS|off]");
}

}  // namespace
}  // namespace plateau::server
