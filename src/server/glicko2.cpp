#include "server/glicko2.h"

#include <cmath>

namespace plateau::server {

namespace {

constexpr double kScale = 173.7178;  // 400 / ln(10)
constexpr double kPi = 3.14159265358979323846;
constexpr double kEpsilon = 0.000001;

double g(double phi) { return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (kPi * kPi)); }

}  // namespace

Glicko glicko2_update(const Glicko& player, const std::vector<GlickoGame>& games) {
  const double mu = (player.rating - 1500.0) / kScale;
  const double phi = player.deviation / kScale;
  double v_inv = 0.0;
  double sum = 0.0;
  for (const auto& game : games) {
    const double mu_j = (game.opponent.rating - 1500.0) / kScale;
    const double g_j = g(game.opponent.deviation / kScale);
    const double e = 1.0 / (1.0 + std::exp(-g_j * (mu - mu_j)));
    v_inv += g_j * g_j * e * (1.0 - e);
    sum += g_j * (game.score - e);
  }
  const double v = 1.0 / v_inv;
  const double delta = v * sum;

  // Step 5: the new volatility by the Illinois algorithm.
  const double a = std::log(player.volatility * player.volatility);
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d2 = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d2 * d2) -
           (x - a) / (kGlickoTau * kGlickoTau);
  };
  double A = a;
  double B;
  if (delta * delta > phi * phi + v) {
    B = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * kGlickoTau) < 0) ++k;
    B = a - k * kGlickoTau;
  }
  double fA = f(A);
  double fB = f(B);
  for (int i = 0; i < 100 && std::abs(B - A) > kEpsilon; ++i) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2.0;
    }
    B = C;
    fB = fC;
  }
  const double sigma = std::exp(A / 2.0);

  const double phi_star = std::sqrt(phi * phi + sigma * sigma);
  const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double mu_new = mu + phi_new * phi_new * sum;

  Glicko out;
  out.rating = kScale * mu_new + 1500.0;
  out.deviation = kScale * phi_new;
  out.volatility = sigma;
  return out;
}

}  // namespace plateau::server
