#pragma once
// A mail's Subject as a command line (issue 15 item 2; docs/MAIL.md): pbmserv's forms carry the
// sender's `USERID PASSWORD` inline (`phutball move 101 alice PASSWORD H11#3`); rewrite_subject
// takes them out, leaving a line of the text transport's language (command.h). Used by the mail
// session, and by the lobby for the same inline form typed on the text and WebSocket transports.
// Only words are moved: parse_command judges the line.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace plateau::server {

// A Subject read as a command.
struct MailCommand {
  enum class Kind {
    kSignup,       // signup USER PASSWORD [ADDRESS]: `line` registers; `address` ("" = sender's)
    kChallenge,    // [GAME] challenge ... U1 U2 ...: the sender must be the address of a player
    kCredentials,  // [GAME] VERB BOARD USER PASSWORD ..., or an account's command (limit,
                   // change, signoff, unsubscribe all) VERB [SUB] USER PASSWORD ...: log in as
                   // `user`, then run `line` (without the credentials)
    kPlain,        // anything else (show, games, help, standings): run `line` as it is
    kError,        // `error` says what is wrong
  };
  Kind kind = Kind::kError;
  std::string line;  // the text command to run (without credentials)
  std::string user;
  std::string password;
  std::string address;
  std::vector<std::string> players;  // kChallenge: the user names on the line
  std::string game;                  // the game word, if any ("phutball")
  std::optional<int> board;          // the board number, if any
  bool chat = false;                 // the verb is chat: the body is its text
  bool takes_comment = false;        // a body goes with the command as its comment
  std::string subject;               // an account command's answer Subject ("Plateau: limit")
  std::string error;
};

// Reads a Subject (mail_message.h: decoded, one line). Never throws.
MailCommand rewrite_subject(std::string_view subject);

// What `help` by mail adds to the text port's list: the mail forms with inline credentials.
const std::string& mail_help();

// The body as one chat line: its lines joined with " / ", at most 1000 bytes; "" for none.
std::string comment_line(std::string_view body);

}  // namespace plateau::server
