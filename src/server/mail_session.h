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
#include "server/mail_command.h"
#include "server/mail_lmtp.h"
#include "server/mail_message.h"

namespace plateau::server {

class Lobby;
class MailDedup;
class MailOutbox;

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
  // Runs a mail claimed in the dedup (kRun or kUnknown) and records it as run.
  void run_mail(std::string message, InboundMail mail, const std::string& sender,
                const std::string& id, std::function<void(LmtpReply)> done);

  boost::asio::io_context& io_;
  Lobby& lobby_;
  MailOutbox& outbox_;
  MailDedup& dedup_;
};

}  // namespace plateau::server
