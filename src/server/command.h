#pragma once
// The command language shared by every text transport (DESIGN.md §5; docs/PROTOCOL.md).
// parse_command turns one input line into a Command; it knows the words, not the games or the
// state: the lobby and the tables check names, seats, turns and legality.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace plateau::server {

// Longest accepted command line in bytes, without the line end (text transport bound).
inline constexpr std::size_t kMaxLineBytes = 4096;
// Most moves one `preview` replays.
inline constexpr std::size_t kMaxPreviewMoves = 400;

// A line that is not a command; the message says what is wrong and what is expected.
class CommandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Verb {
  // accounts and general
  kRegister,
  kLogin,
  kGuest,
  kLogout,
  kResume,  // resume TOKEN: log in with a resume token (resume_tokens.h)
  kQuit,
  kWho,
  kGames,
  kHelp,
  kTables,
  kStandings,
  kPing,
  kLimit,  // limit [N|accept|reject]: the challenges the logged-in account accepts
  // tables (BSW style, acting on the current table unless a board number is given)
  kOpen,
  kTable,
  kJoin,
  kLeave,
  kStart,
  kStartNoSave,
  kOption,
  kWatch,
  kSay,
  kReset,
  kInfo,
  kInvite,  // /invite [BOARD] NAME: NAME may reach the (invisible) table
  // pbmserv-style game commands (a board number, or the current table)
  kChallenge,
  kMove,
  kQueue,
  kResign,
  kPropose,
  kAccept,
  kReject,
  kUndo,
  kShow,
  kChat,
  // step input: the legal next steps after a prefix (DESIGN.md §2)
  kSteps,
  // resync [GAME] BOARD SEQ: the table events after SEQ, then watching (args: {SEQ})
  kResync,
  // correspondence play (issue 15; docs/MAIL.md): notify [every|digest|off] (args: the word,
  // lower-case) and vacation [DAYS|off] (args: the word)
  kNotify,
  kVacation,
  // pbmserv's rest (issue 15 item 2; specs/phutball.md §10.2, §10.4, §10.5)
  kHistory,      // history [USER]: finished games (args: {USER} or none)
  kChange,       // change password OLD NEW | change address ADDRESS (args[0] lower-case)
  kSignoff,      // signoff: close the logged-in account
  kSubscribe,    // subscribe BOARD: its pages by mail
  kUnsubscribe,  // unsubscribe BOARD | unsubscribe all (args: {"all"})
  kPreview,      // preview BOARD MOVE... | preview new N [-NAME=VALUE ...] MOVE... (args: moves;
                 // `new`: args[0] "new", args[1] N)
  kSubmit,       // submit BOARD MOVE[#n]: a preview that confirm then plays
  kConfirm,      // confirm BOARD: plays the move submitted
  kAnalyse,      // analyse [GAME] BOARD[#n] [LEVEL]: a bot's evaluation and line (args: LEVEL)
};

// Canonical word of a verb ("challenge", "join", ...).
std::string_view verb_name(Verb verb);

struct Command {
  Verb verb = Verb::kPing;
  std::string game;               // lower-case game word before a pbmserv verb, or ""
  std::optional<int> board;       // board/table number when given
  std::optional<int> ply_check;   // the n of MOVE#n or BOARD#n
  std::vector<std::string> args;  // remaining positional words, as typed
  std::vector<std::pair<std::string, std::string>> params;  // -name=value (and /option pairs)
  std::vector<std::string> flags;                           // --name
  // Free text of say/chat (rest of the line, verbatim); for a verb that takes_comment(), the
  // comment a transport sends with it (a mail's body), added to the board in the same action.
  std::string text;
};

// Parses one line (without its line end). Returns nullopt for a blank line. Throws CommandError
// for a line longer than kMaxLineBytes, control characters, an unknown word, a missing or extra
// argument, a bad number or a malformed -name=value. Never throws anything else.
std::optional<Command> parse_command(std::string_view line);

// The verb `word` names as parse_command reads a line's first word ("mvoe" -> kMove, "chall"
// -> kChallenge; lower-case, without '/'), or nullopt; and whether it may follow a game word.
// For a transport that rewrites its lines before parsing them (mail: inline credentials).
std::optional<Verb> verb_of_word(std::string_view word);
bool verb_takes_game_word(Verb verb);
// True for the verbs a mail's body goes with as a comment (pbmserv: "<userid> writes: ..."):
// move, resign, propose, accept, reject, undo, confirm.
bool takes_comment(Verb verb);

// One line per command for `help` (usage and meaning).
const std::vector<std::pair<std::string, std::string>>& command_help();

}  // namespace plateau::server
