#include "cli/progress.h"

#include <algorithm>
#include <cstdio>

namespace plateau::cli {

ProgressBar::ProgressBar(std::string label, std::uint64_t total, std::string unit)
    : label_(std::move(label)), total_(total), unit_(std::move(unit)) {}

void ProgressBar::update(std::uint64_t done) {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  draw(done, false);
}

void ProgressBar::finish(std::uint64_t done) {
  draw(done, true);
  std::fputc('\n', stderr);
  std::fflush(stderr);
}

void ProgressBar::draw(std::uint64_t done, bool final) {
  constexpr int kWidth = 30;
  std::string line = "\r" + label_ + " [";
  if (total_ > 0) {
    double f = static_cast<double>(done) / static_cast<double>(total_);
    f = final ? std::min(f, 1.0) : std::min(f, 0.99);
    const int fill = static_cast<int>(f * kWidth);
    line += std::string(static_cast<std::size_t>(fill), '#') +
            std::string(static_cast<std::size_t>(kWidth - fill), '.');
    char pct[16];
    std::snprintf(pct, sizeof pct, "] %3d%% ", static_cast<int>(f * 100));
    line += pct + std::to_string(done) + "/" + std::to_string(total_);
  } else {
    line += std::to_string(done) + "]";
  }
  line += " " + unit_;
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace plateau::cli
