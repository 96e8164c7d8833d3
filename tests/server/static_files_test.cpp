// The browser client's files over HTTP: index for "/", content types, and every path that must
// not escape the web root (issue 12, item 1: `GET //etc/passwd` once served the file).
#include "server/static_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace plateau::server {
namespace {

namespace fs = std::filesystem;

class StaticFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    // One directory per process and test: ctest runs each test as its own process in parallel.
    base_ = fs::temp_directory_path() /
            ("plateau-static-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    root_ = base_ / "web";
    fs::create_directories(root_ / "assets");
    std::ofstream(root_ / "index.html") << "<!doctype html>";
    std::ofstream(root_ / "assets" / "app.js") << "let x = 1;";
    std::ofstream(base_ / "secret.txt") << "no";
  }
  void TearDown() override { fs::remove_all(base_); }
  fs::path base_;
  fs::path root_;
};

TEST_F(StaticFiles, ServesIndexAndAssetsWithTypes) {
  auto index = find_static_file(root_, "/");
  ASSERT_TRUE(index);
  EXPECT_EQ(index->body, "<!doctype html>");
  EXPECT_STREQ(index->content_type, "text/html; charset=utf-8");
  auto named = find_static_file(root_, "/index.html");
  ASSERT_TRUE(named);
  EXPECT_EQ(named->body, "<!doctype html>");
  auto js = find_static_file(root_, "/assets/app.js?v=3");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->body, "let x = 1;");
  EXPECT_STREQ(js->content_type, "text/javascript; charset=utf-8");
  // Escapes that stay inside the root decode to the file.
  auto escaped = find_static_file(root_, "/assets/%61pp.js");
  ASSERT_TRUE(escaped);
  EXPECT_EQ(escaped->body, "let x = 1;");
  EXPECT_TRUE(find_static_file(root_, "/assets//./app.js"));
}

TEST_F(StaticFiles, RefusesAbsolutePathsThatOnceReplacedTheRoot) {
  EXPECT_FALSE(find_static_file(root_, "//etc/passwd"));
  EXPECT_FALSE(find_static_file(root_, "/%2Fetc%2Fpasswd"));
  EXPECT_FALSE(find_static_file(root_, "/%2fetc%2fpasswd"));
  EXPECT_FALSE(find_static_file(root_, "//proc/self/cmdline"));
  EXPECT_FALSE(find_static_file(root_, std::string("/") + (base_ / "secret.txt").string()));
}

TEST_F(StaticFiles, RefusesParentSegmentsPlainAndEncoded) {
  EXPECT_FALSE(find_static_file(root_, "/../secret.txt"));
  EXPECT_FALSE(find_static_file(root_, "/..%2f..%2fetc/passwd"));
  EXPECT_FALSE(find_static_file(root_, "/..%2Fsecret.txt"));
  EXPECT_FALSE(find_static_file(root_, "/assets/%2e%2e/%2e%2e/secret.txt"));
  EXPECT_FALSE(find_static_file(root_, "/assets/../../secret.txt"));
}

TEST_F(StaticFiles, RefusesSymlinksLeadingOutsideTheRoot) {
  fs::create_symlink(base_ / "secret.txt", root_ / "secret.txt");
  fs::create_symlink("/etc", root_ / "etc");
  fs::create_symlink(base_, root_ / "up");
  EXPECT_FALSE(find_static_file(root_, "/secret.txt"));
  EXPECT_FALSE(find_static_file(root_, "/etc/passwd"));
  EXPECT_FALSE(find_static_file(root_, "/up/secret.txt"));
  // A symlink that stays inside the root is an ordinary file.
  fs::create_symlink(root_ / "assets" / "app.js", root_ / "app.js");
  auto inside = find_static_file(root_, "/app.js");
  ASSERT_TRUE(inside);
  EXPECT_EQ(inside->body, "let x = 1;");
}

TEST_F(StaticFiles, RefusesDirectoriesAndOtherNonRegularFiles) {
  EXPECT_FALSE(find_static_file(root_, "/assets"));
  EXPECT_FALSE(find_static_file(root_, "/assets/"));
  ASSERT_EQ(::mkfifo((root_ / "fifo").c_str(), 0600), 0);
  EXPECT_FALSE(find_static_file(root_, "/fifo"));  // and does not block opening it
}

TEST_F(StaticFiles, RefusesNulBackslashAndBadEscapes) {
  EXPECT_FALSE(find_static_file(root_, std::string("/index.html\0.js", 15)));
  EXPECT_FALSE(find_static_file(root_, "/index.html%00.js"));
  EXPECT_FALSE(find_static_file(root_, "/assets\\app.js"));
  EXPECT_FALSE(find_static_file(root_, "/assets%5capp.js"));
  EXPECT_FALSE(find_static_file(root_, "/index.html%"));
  EXPECT_FALSE(find_static_file(root_, "/index.html%4"));
  EXPECT_FALSE(find_static_file(root_, "/%zzindex.html"));
  EXPECT_FALSE(find_static_file(root_, "/%ff.html"));  // not UTF-8
}

TEST_F(StaticFiles, RefusesMissingFilesAndBadTargets) {
  EXPECT_FALSE(find_static_file(root_, "/missing.js"));
  EXPECT_FALSE(find_static_file(root_, "relative"));
  EXPECT_FALSE(find_static_file(root_, ""));
  EXPECT_FALSE(find_static_file(root_ / "nowhere", "/"));
}

TEST_F(StaticFiles, NeverServesTheDataDirectory) {
  // --web-dir containing the data directory.
  fs::create_directories(root_ / "data");
  std::ofstream(root_ / "data" / "plateau.db-wal") << "argon2id hashes";
  EXPECT_TRUE(find_static_file(root_, "/data/plateau.db-wal"));  // without the rule
  EXPECT_FALSE(find_static_file(root_, "/data/plateau.db-wal", root_ / "data"));
  EXPECT_FALSE(find_static_file(root_, "/data/../data/plateau.db-wal", root_ / "data"));
  EXPECT_TRUE(find_static_file(root_, "/index.html", root_ / "data"));
  // --web-dir equal to the data directory, named another way.
  EXPECT_FALSE(find_static_file(root_, "/index.html", root_ / "assets" / ".."));
  // A symlink in the root to the data directory elsewhere.
  fs::create_directories(base_ / "store");
  std::ofstream(base_ / "store" / "plateau.db") << "db";
  fs::create_symlink(base_ / "store", root_ / "store");
  EXPECT_FALSE(find_static_file(root_, "/store/plateau.db", base_ / "store"));
}

TEST(DecodeTargetPath, DecodesEscapesStrictly) {
  EXPECT_EQ(decode_target_path("/a%20b+c"), "/a b+c");
  EXPECT_EQ(decode_target_path("/%41%4a%4A"), "/AJJ");
  EXPECT_EQ(decode_target_path("/%2e%2E"), "/..");
  EXPECT_EQ(decode_target_path("/%"), std::nullopt);
  EXPECT_EQ(decode_target_path("/%a"), std::nullopt);
  EXPECT_EQ(decode_target_path("/%g0"), std::nullopt);
  EXPECT_EQ(decode_target_path("/%00"), std::nullopt);
  EXPECT_EQ(decode_target_path("/a\\b"), std::nullopt);
  EXPECT_EQ(decode_target_path("/a%5Cb"), std::nullopt);
}

TEST(PathWithin, ComparesWholeComponents) {
  EXPECT_TRUE(path_within("/srv/web/a.js", "/srv/web"));
  EXPECT_TRUE(path_within("/srv/web", "/srv/web"));
  EXPECT_TRUE(path_within("/srv/web/a.js", "/srv/web/"));
  EXPECT_FALSE(path_within("/srv/web2/a.js", "/srv/web"));
  EXPECT_FALSE(path_within("/srv", "/srv/web"));
  EXPECT_TRUE(path_within("/etc/passwd", "/"));
}

}  // namespace
}  // namespace plateau::server
