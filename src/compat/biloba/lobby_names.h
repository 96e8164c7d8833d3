#pragma once
// Names of biloba 0.9.3 network players as the lobby shows them. The wire carries any bytes a
// client chose (spec biloba.md §11); a finished legacy game becomes a lobby table whose record
// lists its seats in one comma-separated Seats tag (core/record.h), so the names are tidied
// there (the .blb dump keeps the original bytes).
#include <string>
#include <vector>

namespace plateau::biloba::net {

// One name per seat: control characters and commas become spaces, runs of spaces one space,
// ends trimmed, at most 40 bytes (cut at a UTF-8 character boundary); an empty result becomes
// "Player N" (N = seat + 1). Never throws.
std::vector<std::string> lobby_names(const std::vector<std::string>& wire_names);

// A chat line from the wire (already UTF-8) as the lobby's table chat shows it: control
// characters (C0, DEL and C1) become spaces, ends trimmed. Never throws.
std::string lobby_chat(const std::string& text);

}  // namespace plateau::biloba::net
