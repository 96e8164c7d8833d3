#pragma once
// The LMTP listener (RFC 2033) of `plateau serve --lmtp-port` (issue 15, item 1; docs/MAIL.md):
// a mail server (Postfix's `lmtp:inet:` transport, OpenSMTPD, Exim) or `plateau mail-in`
// delivers each message here. Every connection runs on its own strand of the server's event
// loop. A message is handed to `deliver` once its final "." has arrived; the answer (one line
// per accepted recipient, RFC 2033 §4.2) is written only when `deliver` reports, i.e. once the
// command's effects are durable: `250` then, a `4xx` when the server cannot (the sender retries).
//
// Bounds (every byte is untrusted): a message over LmtpLimits::max_message_bytes is read to its
// end and refused with `552`; a command line over max_line_bytes with `500`; more than
// max_recipients RCPT TO with `452`; a silent connection is closed after idle_timeout; a DATA
// transaction still open after data_timeout (bytes trickled in) gets `421` and is closed; the
// connection counts against the server's ConnectionLimit like every other port.
// A client that pipelines without reading its answers is not read any further while answers
// wait to be sent (at most one read's worth of answers is ever queued), and a write stuck for
// idle_timeout closes the socket.
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "server/asio.h"
#include "server/connection_limit.h"
#include "server/rate_limited_log.h"

namespace plateau::server {

struct LmtpLimits {
  std::size_t max_message_bytes = 256 * 1024;  // the message as received (after dot-unstuffing)
  std::size_t max_line_bytes = 1000;       // a command line, CRLF included (RFC 5321 §4.5.3.1.6)
  std::size_t max_recipients = 20;         // RCPT TO per transaction
  std::chrono::seconds idle_timeout{300};  // between two reads (RFC 5321 §4.5.3.2: 5 min)
  std::chrono::seconds data_timeout{600};  // from DATA's 354 to the final "."
};

// The outcome of one message: an SMTP reply code (250, 451, 452, 550, 554, ...) and its text.
struct LmtpReply {
  int code = 250;
  std::string text;
};

// Hands a whole message over. `envelope_from` is MAIL FROM's address ("" for the null sender
// `<>`). `done` may be called from any thread, exactly once.
using LmtpDeliver = std::function<void(std::string message, std::string envelope_from,
                                       std::function<void(LmtpReply)> done)>;

class LmtpListener : public std::enable_shared_from_this<LmtpListener> {
 public:
  // Listens on `endpoint`; throws boost::system::system_error if it cannot.
  LmtpListener(boost::asio::io_context& io, const boost::asio::ip::tcp::endpoint& endpoint,
               std::shared_ptr<ConnectionLimit> connections, LmtpLimits limits,
               std::string host_name, LmtpDeliver deliver);
  void start();
  // Stops accepting (open connections finish their transaction or time out).
  void stop();
  std::uint16_t port() const;

 private:
  void accept();
  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_;
  RateLimitedLog failures_;  // accept failures, logged at most once a second
  std::shared_ptr<ConnectionLimit> connections_;
  LmtpLimits limits_;
  std::string host_;
  LmtpDeliver deliver_;
  bool stopped_ = false;
};

}  // namespace plateau::server
