#pragma once
// A one-line progress bar on standard error, redrawn in place:
//   "solving [##########..........]  50% 1234567/2469134 positions"
// Redraws at most every 100 ms (and always at the end) so that it costs nothing measurable.
#include <chrono>
#include <cstdint>
#include <string>

namespace plateau::cli {

class ProgressBar {
 public:
  // `total` = 0: unknown, only the count is shown.
  ProgressBar(std::string label, std::uint64_t total, std::string unit);
  // Shows `done` (clamped to 99% of a known total until finish()).
  void update(std::uint64_t done);
  // Shows the final count and ends the line.
  void finish(std::uint64_t done);

 private:
  void draw(std::uint64_t done, bool final);
  std::string label_;
  std::uint64_t total_;
  std::string unit_;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace plateau::cli
