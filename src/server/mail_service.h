#pragma once
// Play by e-mail in `plateau serve` (issue 15; docs/MAIL.md): `--lmtp-port` (mail in),
// `--smtp URL` and `--mail-from ADDRESS` (mail out), as one listener the application adds
// (server.h: ExtraListenerFactory). It installs the mail renderer (mail_outbox.h) in the lobby,
// sends what the last run left in the outbox, and runs the LMTP listener (mail_lmtp.h) whose
// messages the mail session (mail_session.h) runs.
#include <cstdint>
#include <string>

#include "server/mail_lmtp.h"
#include "server/server.h"

namespace plateau::server {

struct MailOptions {
  std::uint16_t lmtp_port = 0;  // 0: no LMTP listener
  // The LMTP listener's address: loopback, for the local MTA (anyone who can reach the port can
  // deliver without the MTA's SPF/DMARC checks, and a challenge is authorised by From: alone).
  std::string lmtp_bind = "127.0.0.1";
  std::string smtp_url;         // "": mail is stored in the outbox, not sent
  std::string mail_from;        // required when either of the above is set
  LmtpLimits lmtp;
};

// Throws std::runtime_error (the server does not start) for a bad --mail-from or --smtp URL, or
// a port it cannot listen on.
ExtraListenerFactory mail_port(MailOptions options);

}  // namespace plateau::server
