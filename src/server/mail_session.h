#pragma once
// The mail session (issue 15, item 2; docs/MAIL.md): one inbound mail is one pbmserv command.
// Its Subject is a command line of the text transport with the sender's credentials inline
// (`phutball move 101 alice PASSWORD H11#3`); rewrite_subject() takes them out, and the line runs
// through the same lobby and parser as every text command (Lobby::handle), as a client logged in
// for that one command. The body is the comment (`chat`, or appended to a move as a chat line).
// A refused command is answered by an error mail to the envelope sender (Subject `Phutball Board
// 101 Error`: the reason, the board, and for an account's address `Original message follows:`
// and the original's first 4 KiB). Every answer goes to the envelope sender. Mail sent by a
// program (mail_message.h: Auto-Submitted, Precedence, null sender) is dropped: no mail loops.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/asio.h"
#include "server/mail_lmtp.h"

namespace plateau::server {

class Lobby;
class MailDedup;
class MailOutbox;

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

// Runs inbound mail on the server's event loop.
class MailIntake : public std::enable_shared_from_this<MailIntake> {
 public:
  MailIntake(boost::asio::io_context& io, Lobby& lobby, MailOutbox& outbox, MailDedup& dedup);
  // LmtpDeliver: parse, run, answer. `done` gets 250 once every effect (the move, the error
  // mail) is durable, 451 when the store failed, 554 for input that is not a message. A mail
  // already run (same envelope sender and Message-ID, mail_dedup.h) gets 250 and runs nothing;
  // one whose earlier delivery is still running gets 451.
  void deliver(std::string message, std::string envelope_from, std::function<void(LmtpReply)> done);

 private:
  boost::asio::io_context& io_;
  Lobby& lobby_;
  MailOutbox& outbox_;
  MailDedup& dedup_;
};

}  // namespace plateau::server
