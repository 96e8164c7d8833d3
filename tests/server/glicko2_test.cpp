#include "server/glicko2.h"

#include <gtest/gtest.h>

namespace plateau::server {
namespace {

// Glickman, "Example of the Glicko-2 system" (2013), the worked example of section 3.
TEST(Glicko2, GlickmansWorkedExample) {
  Glicko player{1500, 200, 0.06};
  std::vector<GlickoGame> games = {
      {{1400, 30, 0.06}, 1.0}, {{1550, 100, 0.06}, 0.0}, {{1700, 300, 0.06}, 0.0}};
  Glicko out = glicko2_update(player, games);
  EXPECT_NEAR(out.rating, 1464.06, 0.01);
  EXPECT_NEAR(out.deviation, 151.52, 0.01);
  EXPECT_NEAR(out.volatility, 0.05999, 0.00001);
}

TEST(Glicko2, OneGameBetweenNewcomersIsSymmetric) {
  Glicko a;
  Glicko b;
  Glicko wa = glicko2_update(a, b, 1.0);
  Glicko lb = glicko2_update(b, a, 0.0);
  EXPECT_GT(wa.rating, 1500.0);
  EXPECT_NEAR(wa.rating - 1500.0, 1500.0 - lb.rating, 1e-9);
  EXPECT_NEAR(wa.deviation, lb.deviation, 1e-9);
  EXPECT_LT(wa.deviation, 350.0);
  Glicko draw = glicko2_update(a, b, 0.5);
  EXPECT_NEAR(draw.rating, 1500.0, 1e-9);
}

}  // namespace
}  // namespace plateau::server
