#pragma once
// Small string helpers shared by notation parsers and printers.
#include <cstddef>
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
// True if `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
// above U+10FFFF). Every transport checks its input with this at the edge (docs/SECURITY.md).
bool valid_utf8(std::string_view text);
// Byte offset of the first byte of `text` that is not part of well-formed UTF-8, or
// std::string_view::npos when all of it is.
std::size_t first_invalid_utf8(std::string_view text);
// The first at most `max_bytes` bytes of `text`, shortened so that they do not end inside a
// UTF-8 sequence (a cut mid-character would make valid text invalid). `text` is assumed
// well-formed; continuation bytes (10xxxxxx) at the cut are dropped with their lead byte.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes);
// `text` read as ISO 8859-1 (each byte is the code point of the same value), as UTF-8. The biloba
// 0.9.3 client sends names in the machine's 8-bit encoding, Latin-1 on the Debian systems of its
// time; the .blb dump keeps the wire bytes.
std::string latin1_to_utf8(std::string_view text);
// The reverse, for what Plateau sends to a biloba 0.9.3 peer: well-formed UTF-8 `text` whose
// code points are all at most U+00FF, as ISO 8859-1 (one byte each), so that the original
// shows "André" and not "AndrÃ©"; `text` unchanged when it has a character Latin-1 lacks (or
// is not well-formed UTF-8): the original cannot show those in any encoding.
std::string utf8_to_latin1_if_possible(std::string_view text);
// The word of `candidates` closest to `word` for a "did you mean" hint: the one with the fewest
// single-letter edits (insert, delete, change, swap of two neighbours; case ignored), if that
// number is at most 2 and less than half of `word`'s length; else "". Ties go to the earlier.
std::string closest_word(std::string_view word, const std::vector<std::string>& candidates);
// True if `text` starts with `prefix`.
inline bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

}  // namespace plateau
