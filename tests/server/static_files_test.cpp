// The browser client's files over HTTP: index for "/", content types, and refused paths.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "server/static_files.h"

namespace plateau::server {
namespace {

class StaticFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    // One directory per process and test: ctest runs each test as its own process in parallel.
    root_ = std::filesystem::temp_directory_path() /
            ("plateau-static-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(root_ / "assets");
    std::ofstream(root_ / "index.html") << "<!doctype html>";
    std::ofstream(root_ / "assets" / "app.js") << "let x = 1;";
    std::ofstream(root_.parent_path() / (root_.filename().string() + "-secret.txt")) << "no";
  }
  void TearDown() override {
    std::filesystem::remove_all(root_);
    std::filesystem::remove(root_.parent_path() / (root_.filename().string() + "-secret.txt"));
  }
  std::filesystem::path root_;
};

TEST_F(StaticFiles, ServesIndexAndAssetsWithTypes) {
  auto index = find_static_file(root_, "/");
  ASSERT_TRUE(index);
  EXPECT_EQ(index->body, "<!doctype html>");
  EXPECT_STREQ(index->content_type, "text/html; charset=utf-8");
  auto js = find_static_file(root_, "/assets/app.js?v=3");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->body, "let x = 1;");
  EXPECT_STREQ(js->content_type, "text/javascript; charset=utf-8");
}

TEST_F(StaticFiles, RefusesEscapesAndMissingFiles) {
  EXPECT_FALSE(find_static_file(root_, "/../" + root_.filename().string() + "-secret.txt"));
  EXPECT_FALSE(find_static_file(root_, "/assets/..%2f..%2fsecret.txt"));
  EXPECT_FALSE(find_static_file(root_, "/assets\\app.js"));
  EXPECT_FALSE(find_static_file(root_, "/assets"));  // a directory
  EXPECT_FALSE(find_static_file(root_, "/missing.js"));
  EXPECT_FALSE(find_static_file(root_, "relative"));
  EXPECT_FALSE(find_static_file(root_ / "nowhere", "/"));
}

}  // namespace
}  // namespace plateau::server
