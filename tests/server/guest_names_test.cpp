#include "server/guest_names.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <future>

namespace plateau::server {
namespace {

class GuestNamesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("plateau-guest-names-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static std::string issue(GuestNames& names) {
    std::promise<std::string> result;
    names.issue([&](std::string name, std::string error) {
      result.set_value(error.empty() ? name : "error: " + error);
    });
    return result.get_future().get();
  }

  std::filesystem::path dir_;
};

TEST_F(GuestNamesTest, NamesAreReservedInBlocksAndNeverComeBack) {
  const auto path = dir_ / "plateau.db";
  {
    store::Store store(path);
    GuestNames names(store, 3);
    names.restore(store.load().counters, 0);
    EXPECT_EQ(issue(names), "guest1");
    EXPECT_EQ(issue(names), "guest2");
    EXPECT_EQ(issue(names), "guest3");
    EXPECT_EQ(issue(names), "guest4");  // the first write reserved 1..4 (the caller and a block)
    EXPECT_EQ(issue(names), "guest5");  // a second write: 5..8
    store.flush();
    // Durable before it was handed out: the store covers guest5.
    EXPECT_EQ(store.load().counters.at(GuestNames::kCounter), 9);
  }
  store::Store store(path);
  GuestNames names(store, 3);
  names.restore(store.load().counters, 0);
  const std::string next = issue(names);
  EXPECT_EQ(next, "guest9");  // 5 issued, 6..8 reserved and skipped
}

TEST_F(GuestNamesTest, NamesStartAboveTheHighestStillInUse) {
  store::Store store(dir_ / "plateau.db");
  GuestNames names(store, 64);
  names.restore(store.load().counters, 41);  // e.g. guest41 sits at a restored table
  EXPECT_EQ(issue(names), "guest42");
}

}  // namespace
}  // namespace plateau::server
