#include "compat/biloba/lobby_names.h"

namespace plateau::biloba::net {

namespace {

constexpr std::size_t kMaxNameBytes = 40;

std::string tidy(const std::string& raw) {
  std::string out;
  for (char c : raw) {
    const auto u = static_cast<unsigned char>(c);
    const bool space = u < 0x20 || u == 0x7f || c == ',' || c == ' ';
    if (space) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.size() > kMaxNameBytes) {
    std::size_t cut = kMaxNameBytes;
    // Back up over UTF-8 continuation bytes so that no character is split.
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out.resize(cut);
    while (!out.empty() && out.back() == ' ') out.pop_back();
  }
  return out;
}

}  // namespace

std::vector<std::string> lobby_names(const std::vector<std::string>& wire_names) {
  std::vector<std::string> out;
  for (std::size_t seat = 0; seat < wire_names.size(); ++seat) {
    std::string name = tidy(wire_names[seat]);
    out.push_back(name.empty() ? "Player " + std::to_string(seat + 1) : name);
  }
  return out;
}

std::string lobby_chat(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (u == 0xC2 && next >= 0x80 && next <= 0x9F) {  // U+0080..U+009F
      out += ' ';
      ++i;
    } else {
      out += u < 0x20 || u == 0x7f ? ' ' : text[i];
    }
  }
  const auto first = out.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return out.substr(first, out.find_last_not_of(' ') - first + 1);
}

}  // namespace plateau::biloba::net
