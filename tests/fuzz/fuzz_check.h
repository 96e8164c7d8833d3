#pragma once
// Helpers shared by the libFuzzer targets (tests/fuzz/README.md). An invariant that fails is a
// bug: FUZZ_CHECK prints what failed and aborts, which libFuzzer reports as a crash with the
// input saved. Inputs are split into lines so that one file can carry several fields (options,
// position, move text).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#define FUZZ_CHECK(cond, what)                                                          \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::fprintf(stderr, "fuzz invariant failed at %s:%d: %s\n  %s\n", __FILE__,      \
                   __LINE__, #cond, std::string(what).c_str());                         \
      std::abort();                                                                     \
    }                                                                                   \
  } while (0)

namespace plateau::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The input's lines (split on '\n', a trailing '\r' kept: the parsers must cope with it).
inline std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    out.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

// Line `i` or "" when the input is shorter.
inline std::string_view line(const std::vector<std::string_view>& lines, std::size_t i) {
  return i < lines.size() ? lines[i] : std::string_view();
}

// Whitespace-separated words of `text`, as step lists are given.
inline std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\t') ++j;
    if (j > i) out.emplace_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace plateau::fuzz
