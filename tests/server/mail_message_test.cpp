// Inbound mail parsing (server/mail_message.h) on real messages: tests/data/mail/*.eml.
#include "server/mail_message.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace plateau::server {
namespace {

std::string read_eml(const std::string& name) {
  std::ifstream in(std::string(PLATEAU_TEST_DATA) + "/mail/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(MailMessage, PlainMoveWithQuoteAndSignature) {
  auto m = parse_mail(read_eml("plain.eml"));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->subject, "phutball move 101 alice secret123 H11#1");
  EXPECT_EQ(m->from, "alice@example.org");
  EXPECT_EQ(m->return_path, "alice@example.org");
  EXPECT_EQ(m->message_id, "m1.alice@example.org");
  EXPECT_EQ(m->body, "Nice opening, Bob.\n");
  EXPECT_FALSE(m->automatic);
  EXPECT_FALSE(m->null_sender);
  EXPECT_EQ(m->sender(), "alice@example.org");
}

TEST(MailMessage, EncodedSubjectAndLatin1TextPart) {
  auto m = parse_mail(read_eml("encoded.eml"));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->subject, "phutball chat 101 jorg secret123");
  EXPECT_EQ(m->from, "jorg@example.de");
  EXPECT_EQ(m->references, "<phutball.101.1@plateau.test>");
  EXPECT_EQ(m->body,
            "Gr\xC3\xBC\xC3\x9F"
            "e aus K\xC3\xB6ln\n");
}

TEST(MailMessage, ProgramsAreRecognised) {
  auto a = parse_mail(read_eml("auto_reply.eml"));
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->automatic);
  EXPECT_EQ(a->automatic_reason, "Auto-Submitted: auto-replied");
  auto b = parse_mail(read_eml("bulk.eml"));
  ASSERT_TRUE(b);
  EXPECT_TRUE(b->automatic);
  EXPECT_EQ(b->automatic_reason, "Precedence: bulk");
  auto c = parse_mail(read_eml("bounce.eml"));
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->null_sender);
  EXPECT_TRUE(c->automatic);
  EXPECT_EQ(c->automatic_reason, "null sender");
  // The envelope wins over the header: a null MAIL FROM is a bounce whatever the header says.
  auto d = parse_mail(read_eml("plain.eml"), "", true);
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->null_sender);
  EXPECT_TRUE(d->automatic);
  auto e = parse_mail("Auto-Submitted: no\nFrom: a@b.c\nSubject: x\n\nhi\n");
  ASSERT_TRUE(e);
  EXPECT_FALSE(e->automatic);
}

TEST(MailMessage, BrokenMimeHasNoBodyButParses) {
  auto m = parse_mail(read_eml("broken_mime.eml"));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->subject, "phutball show 101");
  EXPECT_EQ(m->from, "mallory@example.org");
}

TEST(MailMessage, InvalidUtf8BecomesReplacementCharacters) {
  auto m = parse_mail(read_eml("invalid_utf8.eml"));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->subject.find('\xff'), std::string::npos);
  EXPECT_NE(m->subject.find("move 101"), std::string::npos);
  // GMime's charset conversion drops the stray byte of the declared UTF-8 body.
  EXPECT_EQ(m->body, "bad ( bytes\n");
}

TEST(MailMessage, NotAMessage) {
  EXPECT_FALSE(parse_mail(""));
  EXPECT_FALSE(parse_mail("\r\n\r\n"));
}

TEST(MailMessage, HugeSubjectIsCut) {
  const std::string raw = "From: a@b.c\nSubject: " + std::string(1 << 20, 'x') + "\n\nbody\n";
  auto m = parse_mail(raw);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->subject.size(), kMaxMailSubjectBytes);
}

TEST(MailMessage, HeaderInjectionInFromIsRefused) {
  auto m = parse_mail("From: \"x\" <a@b.c\r\nBcc: victim@d.e>\nSubject: s\n\nb\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->from.find('\n'), std::string::npos);
  EXPECT_EQ(m->from.find(' '), std::string::npos);
}

TEST(MailMessage, SanitizeAndStrip) {
  EXPECT_EQ(sanitize_utf8("a\xC3\x28"), "a\xEF\xBF\xBD(");
  EXPECT_EQ(sanitize_utf8("ok \xE2\x82\xAC"), "ok \xE2\x82\xAC");
  EXPECT_EQ(strip_quotes_and_signature("\n\nhi\r\n> q\n\n-- \nsig\n"), "hi\n");
  EXPECT_EQ(strip_quotes_and_signature("-- \nonly a signature\n"), "");
}

// Review item 7: the root, the last ids and the mail's own; bad or long ids left out.
TEST(MailMessage, ReplyReferencesAreBounded) {
  EXPECT_EQ(reply_references("", "m@x"), "<m@x>");
  EXPECT_EQ(reply_references("<r@x> <1@x> <2@x> <3@x> <4@x> <5@x>", "m@x"),
            "<r@x> <3@x> <4@x> <5@x> <m@x>");
  EXPECT_EQ(reply_references("<r@x> <no-at> <a b@x> <" + std::string(300, 'l') + "@x> <2@x>",
                             "m@x"),
            "<r@x> <2@x> <m@x>");
  EXPECT_EQ(reply_references("<r@x>", "bad id"), "<r@x>");
}

// Review item 12: the odd sign-up addresses the review got accepted.
TEST(MailMessage, SignupAddressProblems) {
  const std::string own = "plateau@plateau.test";
  EXPECT_EQ(signup_address_problem("alice@example.org", own), "");
  EXPECT_EQ(signup_address_problem("a@b", own), "the domain must be a full domain name (example.org)");
  EXPECT_EQ(signup_address_problem("a@b.", own), "the domain must be a full domain name (example.org)");
  EXPECT_EQ(signup_address_problem("root@localhost", own),
            "the domain must be a full domain name (example.org)");
  EXPECT_EQ(signup_address_problem("root@mail.LOCALHOST", own), "a local address");
  EXPECT_EQ(signup_address_problem("|/bin/sh@x.org", own), "the address starts with - or |");
  EXPECT_EQ(signup_address_problem("-oQ@x.org", own), "the address starts with - or |");
  EXPECT_EQ(signup_address_problem("x%y@relay.example", own), "the address holds % or !");
  EXPECT_EQ(signup_address_problem("x!y@relay.example", own), "the address holds % or !");
  EXPECT_EQ(signup_address_problem("Plateau@Plateau.Test", own), "the server's own address");
  EXPECT_EQ(signup_address_problem("a b@x.org", own), "not a plain address (local@domain)");
}

}  // namespace
}  // namespace plateau::server
