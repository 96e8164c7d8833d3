#pragma once
// The window's words in English and French (issue 18: "English and French"). Every string the
// GUI shows comes from here, so a language is one more column in gui_strings.cpp.
#include <optional>
#include <string>
#include <string_view>

namespace plateau::gui {

enum class Lang { kEn, kFr };

// "en" or "fr" (case-insensitive); nullopt for anything else.
std::optional<Lang> parse_lang(std::string_view text);
// The language of a POSIX locale value such as $LANG ("fr_FR.UTF-8" -> French); English when
// null, empty or any other language.
Lang lang_from_locale(const char* locale);

enum class Text {
  kPlayers,        // "PLAYERS" (after the number)
  kHuman,
  kCpuClassic,     // the replica of the original's computer player
  kCpuLevel,       // "CPU level" (followed by 1..5)
  kCreate,         // "CREATE NETWORK GAME"
  kJoin,           // "JOIN GAME"
  kPlay,           // "PLAY !"
  kServer,         // "Server"
  kNoServer,       // "(none: give one on the command line or pick one below)"
  kLanServers,     // "Servers on the LAN"
  kLanNone,        // "none heard yet"
  kPlayerN,        // "Player" (followed by a number)
  kUpTo,           // "Up to"
  kPawns,          // "Pawns"
  kWins,           // "wins !"
  kDraw,           // "Draw"
  kLeaves,         // "leaves"
  kForcedTake,     // "takes at the start of the turn (forced)"
  kIsOut,          // "is out"
  kPasses,         // "passes (no legal move)"
  kTook,           // "took" (followed by a count)
  kPawnsTaken,     // "pawn(s)"
  kMenu,           // "Menu"
  kSave,           // "Save game"
  kSaved,          // "Saved"
  kSaveNothing,    // "Nothing to save yet"
  kChooseRefill,   // "Refill: click a capturer, then an empty square"
  kLeaveCentre,    // "Leave the centre: click a free square"
  kPickPawn,       // "Click one of your pawns"
  kPickTarget,     // "Click a marked square"
  kWaitOthers,     // "Waiting for" (followed by a count)
  kPlayersMissing, // "player(s)"
  kConnecting,     // "Connecting to"
  kOpenGames,      // "Open games on"
  kNoGames,        // "No open game for this number of players"
  kBack,           // "Back"
  kChatHint,       // "Type to chat, Enter sends"
  kHelpNext,       // "Click anywhere for the next page"
  kStuck,          // "has no legal move and waits (Esc: menu)"
  kError,          // "Error"
  kGameName,       // "game" (default name of a created network game: "<name>'s game")
  kReplay,         // "Replay of"
  kSaveLast,       // "SAVE LAST GAME"
  kConnectionLost, // "Connection lost"
};

// The string for `t` in `lang` (UTF-8).
const char* text(Lang lang, Text t);
// True when the table holds every Text once, in the enum's order (checked by a unit test).
bool strings_in_order();

}  // namespace plateau::gui
