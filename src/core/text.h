#pragma once
// Small string helpers shared by notation parsers and printers.
#include <string>
#include <string_view>
#include <vector>

namespace plateau {

// `text` without leading and trailing ASCII whitespace.
std::string_view trim(std::string_view text);
// ASCII lower/upper case copies.
std::string to_lower(std::string_view text);
std::string to_upper(std::string_view text);
// Pieces of `text` between `sep` (keeps empty pieces; "" gives one empty piece).
std::vector<std::string_view> split(std::string_view text, char sep);
// Pieces separated by runs of whitespace (no empty pieces).
std::vector<std::string_view> split_ws(std::string_view text);
// `parts` joined with `sep`.
std::string join(const std::vector<std::string>& parts, std::string_view sep);
// True if `text` starts with `prefix`.
inline bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

}  // namespace plateau
