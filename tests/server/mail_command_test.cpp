// The mail session's Subject rewriting (mail_session.h) and the outbox's messages
// (mail_outbox.h), with exact values.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "server/accounts.h"
#include "server/event.h"
#include "server/mail_message.h"
#include "server/mail_outbox.h"
#include "server/mail_session.h"

namespace plateau::server {
namespace {

using Kind = MailCommand::Kind;

TEST(MailCommand, MoveWithCredentialsBecomesTheTextLine) {
  MailCommand c = rewrite_subject("phutball move 101 alice secret123 H11#3");
  EXPECT_EQ(c.kind, Kind::kCredentials);
  EXPECT_EQ(c.user, "alice");
  EXPECT_EQ(c.password, "secret123");
  EXPECT_EQ(c.line, "phutball move 101 H11#3");
  EXPECT_EQ(c.game, "phutball");
  EXPECT_EQ(c.board, 101);
  EXPECT_TRUE(c.takes_comment);
  EXPECT_FALSE(c.chat);
}

TEST(MailCommand, AliasesAndTheGameWordLeftOut) {
  EXPECT_EQ(rewrite_subject("phutball mvoe 101 bob pw-bob-123 J12").line, "phutball mvoe 101 J12");
  EXPECT_EQ(rewrite_subject("qmove 102 bob pw H12-H10#4").line, "qmove 102 H12-H10#4");
  EXPECT_EQ(rewrite_subject("Phutball Board 101 bob pw H1").line, "phutball Board 101 H1");
  MailCommand r = rewrite_subject("phutball resign 101 alice secret123");
  EXPECT_EQ(r.kind, Kind::kCredentials);
  EXPECT_EQ(r.line, "phutball resign 101");
  MailCommand m = rewrite_subject("phutball move 101 alice secret123 propose");
  EXPECT_EQ(m.line, "phutball move 101 propose");
}

TEST(MailCommand, ChatTakesTheBody) {
  MailCommand c = rewrite_subject("phutball chat 101 alice secret123");
  EXPECT_EQ(c.kind, Kind::kCredentials);
  EXPECT_TRUE(c.chat);
  EXPECT_FALSE(c.takes_comment);
  EXPECT_EQ(c.line, "phutball chat 101");
}

TEST(MailCommand, SignupChallengeAndPlainCommands) {
  MailCommand s = rewrite_subject("signup alice secret123 alice@example.org");
  EXPECT_EQ(s.kind, Kind::kSignup);
  EXPECT_EQ(s.line, "register alice secret123");
  EXPECT_EQ(s.address, "alice@example.org");
  EXPECT_EQ(rewrite_subject("signup alice secret123").address, "");
  MailCommand ch = rewrite_subject("phutball chall -handicap=2 alice bob");
  EXPECT_EQ(ch.kind, Kind::kChallenge);
  EXPECT_EQ(ch.players, (std::vector<std::string>{"alice", "bob"}));
  EXPECT_EQ(ch.line, "phutball chall -handicap=2 alice bob");
  MailCommand show = rewrite_subject("phutball show 101#4");
  EXPECT_EQ(show.kind, Kind::kPlain);
  EXPECT_EQ(show.board, 101);
  EXPECT_EQ(show.line, "phutball show 101#4");
  EXPECT_EQ(rewrite_subject("  help  ").line, "help");
}

TEST(MailCommand, Errors) {
  EXPECT_EQ(rewrite_subject("").kind, Kind::kError);
  EXPECT_EQ(rewrite_subject("   ").error.substr(0, 20), "the Subject is empty");
  EXPECT_EQ(rewrite_subject("phutball move 101 alice").error,
            "usage: phutball move BOARD USERID PASSWORD MOVE[#n]");
  EXPECT_EQ(rewrite_subject("resign x alice pw").error, "usage: resign BOARD USERID PASSWORD");
  EXPECT_EQ(rewrite_subject("signup alice").error, "usage: signup USERID PASSWORD [ADDRESS]");
  EXPECT_EQ(rewrite_subject(std::string(5000, 'x')).error,
            "the Subject is too long: at most 4096 bytes");
}

// Issue 15 item 2: the account commands carry USERID PASSWORD after their words; the line run
// keeps no password but change password's OLD (the command checks it again).
TEST(MailCommand, AccountCommandsWithCredentials) {
  MailCommand l = rewrite_subject("limit bob pw-bob-123 reject");
  EXPECT_EQ(l.kind, Kind::kCredentials);
  EXPECT_EQ(l.user, "bob");
  EXPECT_EQ(l.password, "pw-bob-123");
  EXPECT_EQ(l.line, "limit reject");
  EXPECT_EQ(l.subject, "Plateau: limit");
  EXPECT_FALSE(l.board);
  MailCommand p = rewrite_subject("change password bob old-pw-123 new-pw-456");
  EXPECT_EQ(p.line, "change password old-pw-123 new-pw-456");
  EXPECT_EQ(p.subject, "Plateau: change password");
  MailCommand a = rewrite_subject("Change Address bob pw-bob-123 bob@example.net");
  EXPECT_EQ(a.line, "Change address bob@example.net");
  EXPECT_EQ(a.subject, "Plateau: change address");
  EXPECT_EQ(rewrite_subject("signoff bob pw-bob-123").line, "signoff");
  MailCommand u = rewrite_subject("phutball unsubscribe all bob pw-bob-123");
  EXPECT_EQ(u.line, "phutball unsubscribe all");
  EXPECT_EQ(u.subject, "Plateau: unsubscribe all");
  MailCommand b = rewrite_subject("phutball unsubscribe 101 bob pw-bob-123");
  EXPECT_EQ(b.line, "phutball unsubscribe 101");
  EXPECT_EQ(b.board, 101);
  EXPECT_EQ(rewrite_subject("phutball submit 101 bob pw H12#2").line, "phutball submit 101 H12#2");
  EXPECT_EQ(rewrite_subject("phutball confirm 101 bob pw").line, "phutball confirm 101");
  EXPECT_EQ(rewrite_subject("phutball subscribe 101 bob pw").line, "phutball subscribe 101");
  // Without credentials: the usage.
  EXPECT_EQ(rewrite_subject("limit bob").error, "usage: limit USERID PASSWORD N|accept|reject");
  EXPECT_EQ(rewrite_subject("signoff").error, "usage: signoff USERID PASSWORD");
  EXPECT_EQ(rewrite_subject("change password bob").error,
            "usage: change password USERID OLD NEW | change address USERID PASSWORD ADDRESS");
  EXPECT_EQ(rewrite_subject("unsubscribe all bob").error, "usage: unsubscribe all USERID PASSWORD");
  EXPECT_EQ(rewrite_subject("phutball submit 101 bob").error,
            "usage: phutball submit BOARD USERID PASSWORD MOVE[#n]");
  // preview and history need no login.
  MailCommand pv = rewrite_subject("phutball preview 101 H11 J12");
  EXPECT_EQ(pv.kind, Kind::kPlain);
  EXPECT_EQ(pv.board, 101);
  EXPECT_EQ(rewrite_subject("phutball history bob").kind, Kind::kPlain);
}

TEST(MailCommand, CommentLine) {
  EXPECT_EQ(comment_line("Good luck!\n\n  Second line \n"), "Good luck! / Second line");
  EXPECT_EQ(comment_line("\n \n"), "");
  EXPECT_EQ(comment_line(std::string(3000, 'a')).size(), 1000u);
}

TEST(MailOutbox, ComposeMail) {
  MailDraft d{"bob@example.org",
              "Phutball Board 101 bob",
              "line 1\nline 2\n",
              "phutball.101.3.7@plateau.test",
              "phutball.101.7@plateau.test",
              "<phutball.101.7@plateau.test>"};
  EXPECT_EQ(compose_mail(d, "plateau@plateau.test", 1796212800000),
            "From: Plateau <plateau@plateau.test>\r\n"
            "To: <bob@example.org>\r\n"
            "Subject: Phutball Board 101 bob\r\n"
            "Date: Wed, 02 Dec 2026 12:00:00 +0000\r\n"
            "Message-ID: <phutball.101.3.7@plateau.test>\r\n"
            "In-Reply-To: <phutball.101.7@plateau.test>\r\n"
            "References: <phutball.101.7@plateau.test>\r\n"
            "Auto-Submitted: auto-replied\r\n"
            "MIME-Version: 1.0\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n"
            "Content-Transfer-Encoding: 8bit\r\n"
            "\r\n"
            "line 1\r\nline 2\r\n");
  d.subject = "evil\r\nBcc: x@y.z";
  d.body = std::string(2000, 'q');
  const std::string m = compose_mail(d, "plateau@plateau.test", 0);
  EXPECT_NE(m.find("Subject: evil  Bcc: x@y.z\r\n"), std::string::npos);
  EXPECT_NE(m.find("\r\n\r\n" + std::string(998, 'q') + "\r\n" + std::string(998, 'q') + "\r\n" +
                   std::string(4, 'q')),
            std::string::npos);
}

// Review item 8: a quoted `\r.\r\n` followed by SMTP commands, NUL and other controls.
TEST(MailOutbox, ComposeMailRemovesLoneCrNulAndControls) {
  MailDraft d{"bob@example.org", "s", std::string("a\r.\r\nMAIL FROM:<x@y.z>\r\nb\0c\x01\td\n", 31),
              "id@plateau.test", "", ""};
  const std::string m = compose_mail(d, "plateau@plateau.test", 0);
  EXPECT_EQ(m.substr(m.find("\r\n\r\n")), "\r\n\r\na.\r\nMAIL FROM:<x@y.z>\r\nbc\td\r\n");
}

// Review item 7: a long References is folded (no line over 78 bytes there).
TEST(MailOutbox, ComposeMailFoldsLongHeaders) {
  MailDraft d{"bob@example.org", "s", "", "id@plateau.test", "c@d",
              "<" + std::string(60, 'a') + "@b> <" + std::string(60, 'c') + "@d>"};
  const std::string m = compose_mail(d, "plateau@plateau.test", 0);
  EXPECT_NE(m.find("\r\nReferences: <" + std::string(60, 'a') + "@b>\r\n <" +
                   std::string(60, 'c') + "@d>\r\n"),
            std::string::npos)
      << m;
}

// The renderer: one row per player with an address, in the action's own batch.
TEST(MailOutbox, TableEventsBecomeOutboxRowsInTheSameBatch) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("plateau-mail-outbox-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    store::Store store(dir / "plateau.db");
    store.load();
    boost::asio::thread_pool hashing(1);
    Accounts accounts(store, hashing, LobbyLimits{});
    accounts.restore({{"alice", "h", 0, -1, "alice@example.org"}, {"bob", "h", 0, -1, ""}});
    std::vector<std::string> sent;
    MailOutbox outbox(accounts, store, {"smtp://127.0.0.1:1", "plateau@plateau.test"},
                      [&](const MailSettings&, const std::string& to, const std::string&) {
                        sent.push_back(to);
                        return SmtpResult{};
                      });
    TableNotice n;
    n.table_id = 7;
    n.game = "phutball";
    n.board = 101;
    n.title = "Phutball Board 101";
    n.players = {"alice", "bob"};
    n.next_user = "bob";
    n.page = [] { return std::string("PAGE\n"); };
    n.by_mail = true;  // a board challenged by mail: every player gets every page (notifier.h)
    Event move{"move", {{"text", "x"}}, "Summary page\n", 3};
    store::Batch batch;
    auto step = outbox.on_table_events(n, {&move}, batch);
    ASSERT_TRUE(step);
    ASSERT_EQ(batch.size(), 1u);
    const auto& row = std::get<store::AddMail>(batch.ops()[0]).row;
    EXPECT_EQ(row.key, "phutball.101.7.3 alice");
    EXPECT_EQ(row.recipient, "alice@example.org");
    EXPECT_NE(row.message.find("\r\nSubject: Phutball Board 101 bob\r\n"), std::string::npos);
    EXPECT_NE(row.message.find("\r\nMessage-ID: <phutball.101.3.7@plateau.test>\r\n"),
              std::string::npos);
    EXPECT_NE(row.message.find("\r\nIn-Reply-To: <phutball.101.7@plateau.test>\r\n"),
              std::string::npos);
    EXPECT_EQ(row.message.substr(row.message.size() - 18), "\r\n\r\nSummary page\r\n");
    Event chat{"chat", {{"text", "x"}}, "", 4};
    store::Batch batch2;
    outbox.on_table_events(n, {&chat}, batch2);
    const auto& row2 = std::get<store::AddMail>(batch2.ops()[0]).row;
    EXPECT_NE(row2.message.find("\r\nSubject: Phutball Board 101 bob **\r\n"), std::string::npos);
    EXPECT_EQ(row2.message.substr(row2.message.size() - 8), "\r\nPAGE\r\n");
    Event seat{"table", {{"text", "x"}}, "", 5};
    store::Batch batch3;
    EXPECT_FALSE(outbox.on_table_events(n, {&seat}, batch3));
    EXPECT_TRUE(batch3.empty());
    // Issue 15 e: once the game is over the Subject carries the page's status line, which
    // names the winner (there is no user to move).
    n.next_user.clear();
    n.page = [] { return std::string("Summary of Phutball Board 101\n\nGame won by alice.\n"); };
    Event over{"gameover", {{"text", "x"}}, "", 9};
    store::Batch batch4;
    ASSERT_TRUE(outbox.on_table_events(n, {&over}, batch4));
    const auto& row4 = std::get<store::AddMail>(batch4.ops()[0]).row;
    EXPECT_NE(row4.message.find("\r\nSubject: Phutball Board 101 Game won by alice\r\n"),
              std::string::npos)
        << row4.message;
    n.page = [] { return std::string("Summary of Phutball Board 101\n\nGame was a tie.\n"); };
    store::Batch batch5;
    ASSERT_TRUE(outbox.on_table_events(n, {&over}, batch5));
    EXPECT_NE(std::get<store::AddMail>(batch5.ops()[0])
                  .row.message.find("\r\nSubject: Phutball Board 101 Game was a tie\r\n"),
              std::string::npos);
    hashing.join();
  }
  std::filesystem::remove_all(dir);
}

// Issue 15 b: a Subject with a user's non-ASCII text is RFC 2047 encoded (raw UTF-8 in a header
// is refused or garbled by strict relays); plain ASCII stays as it is.
TEST(MailOutbox, ComposeMailEncodesANonAsciiSubject) {
  MailDraft d{"bob@example.org", "Plateau: show 101 \xc3\xa9t\xc3\xa9", "", "id@plateau.test", "",
              ""};
  const std::string m = compose_mail(d, "plateau@plateau.test", 0);
  EXPECT_NE(m.find("\r\nSubject: Plateau: show 101 =?UTF-8?b?w6l0w6k=?=\r\n"), std::string::npos)
      << m;
  EXPECT_EQ(encode_header_text("Phutball Board 101 bob **"), "Phutball Board 101 bob **");
  // Invalid UTF-8 is replaced first: the encoded words always decode to valid UTF-8.
  EXPECT_EQ(encode_header_text("a \xff"), "a =?UTF-8?b?77+9?=");
}

}  // namespace
}  // namespace plateau::server
