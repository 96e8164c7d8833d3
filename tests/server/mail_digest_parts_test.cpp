// The digests of several nodes (docs/MAIL.md "Several nodes"; mail_outbox.h compose_digests):
// every node's part merged into one mail per reader with a board waiting, the boards longest
// waiting first, a malformed part or entry left out (the database is a trust boundary).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "server/accounts.h"
#include "server/mail_outbox.h"

namespace plateau::server {
namespace {

TEST(MailOutbox, DigestsMergeEveryNodesPartOnePerReader) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("plateau-mail-digest-parts-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    store::Store store(dir / "plateau.db");
    store.load();
    boost::asio::thread_pool hashing(1);
    Accounts accounts(store, hashing, LobbyLimits{});
    MailOutbox outbox(accounts, store, {"smtp://127.0.0.1:1", "plateau@plateau.test"},
                      [](const MailSettings&, const std::string&, const std::string&) {
                        return SmtpResult{};
                      });
    const std::vector<std::string> parts{
        // node a: bob waits at phutball 102 since 2025-12-02 17:05 UTC
        R"({"bob":[{"title":"Phutball Board 102","label":"phutball 102","since":1764695100000}]})",
        // node b: bob at bohnduell 101 (earlier), carol at one board; a broken entry
        R"({"bob":[{"title":"BohnDuell Board 101","label":"bohnduell 101","since":1764608700000},
                   {"title":7}],
            "carol":[{"title":"Phutball Board 103","label":"phutball 103","since":1764695100000}]})",
        "not json", R"(["an array"])", R"({"bob":"not a list"})"};
    // Readers in the database's spelling; dave has nothing waiting.
    const auto rows = outbox.compose_digests(
        20425, parts, {{"Bob", "bob@example.org"}, {"dave", "dave@example.org"}});
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].key, "digest.20425 bob");
    EXPECT_EQ(rows[0].recipient, "bob@example.org");
    const std::string& m = rows[0].message;
    EXPECT_NE(m.find("\r\nTo: <bob@example.org>\r\n"), std::string::npos) << m;
    EXPECT_NE(m.find("\r\nSubject: Plateau: your move on 2 boards\r\n"), std::string::npos) << m;
    EXPECT_NE(m.find("\r\nMessage-ID: <digest.20425.bob@plateau.test>\r\n"), std::string::npos)
        << m;
    const std::string body = m.substr(m.find("\r\n\r\n") + 4);
    EXPECT_EQ(body,
              "Good day, Bob. 2 boards wait for your move:\r\n\r\n"
              "bohnduell 101: your move since 2025-12-01 17:05 UTC (BohnDuell Board 101)\r\n"
              "phutball 102: your move since 2025-12-02 17:05 UTC (Phutball Board 102)\r\n"
              "\r\nYou get this list once a day (notify digest). `notify every` mails each "
              "event instead, `notify off` nothing.\r\n");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace plateau::server
