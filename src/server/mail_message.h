#pragma once
// One inbound e-mail (RFC 5322 / MIME) as the mail session needs it (issue 15, item 1): the
// decoded Subject (the command line), the sender, the text/plain body without quoted replies or
// signature (the comment), the threading headers, and whether it was sent by a program (then it
// is dropped: no mail loops, RFC 3834). Parsed with GMime 3; every byte is untrusted.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace plateau::server {

// Longest Subject kept, in bytes (longer ones are cut at a UTF-8 boundary; the command parser
// then refuses them as too long or reads only what it needs).
inline constexpr std::size_t kMaxMailSubjectBytes = 8192;
// Longest body kept, in bytes (the comment).
inline constexpr std::size_t kMaxMailBodyBytes = 16384;

struct InboundMail {
  std::string subject;       // decoded (RFC 2047), UTF-8, one line: CR, LF and tabs become spaces
  std::string from;          // the From address (addr-spec, lower-case domain kept as sent), or ""
  std::string return_path;   // the Return-Path (or envelope sender) address; "" when absent
  bool null_sender = false;  // Return-Path or envelope sender `<>` (a bounce)
  std::string message_id;    // Message-ID without angle brackets, or ""
  std::string references;    // the References (unfolded; over 2,000 bytes: first 300, last 1,700)
  std::string body;          // text/plain body: quoted (`>`) lines and the `-- ` signature dropped
  // Set for mail sent by a program: Auto-Submitted other than `no`, Precedence bulk/junk/list,
  // a List-Id, or a null sender. `automatic_reason` names which.
  bool automatic = false;
  std::string automatic_reason;
  // Who the mail says it is from: From, else the Return-Path; "" when neither is usable. It can
  // be forged: replies go to `return_path` only (RFC 3834 §4; review item 3).
  std::string sender() const { return !from.empty() ? from : return_path; }
};

// Parses `raw` (the message as received, CRLF or LF line ends). `envelope_from` is the SMTP/LMTP
// MAIL FROM address if known ("" for a null sender when `have_envelope`). Returns nullopt for
// input that is not a message at all (empty, or no header field GMime can read). Never throws
// for any input; invalid UTF-8 anywhere becomes U+FFFD.
std::optional<InboundMail> parse_mail(std::string_view raw, std::string_view envelope_from = {},
                                      bool have_envelope = false);

// The body as a comment: lines starting with `>` and an "On ... wrote:" line just before them
// dropped, everything from a `-- ` line on dropped, trailing blank lines dropped.
std::string strip_quotes_and_signature(std::string_view text);

// True for a plain addr-spec (local@domain, printable ASCII without spaces, brackets, quotes or
// commas): the only form the server sends mail to, so that no address can inject a header or an
// SMTP command.
bool valid_mail_address(std::string_view address);

// The References of a reply to a mail with `references` (its header, raw) and `message_id`
// (without brackets): the first id of the thread (its root), the last ids before the mail's own,
// and `<message_id>`, at most kMaxReplyReferences ids in all, space-separated. Ids that are not
// `<local@domain>` of printable ASCII of at most 250 bytes are left out (review item 7: an echoed
// References must not become a line SMTP refuses).
inline constexpr std::size_t kMaxReplyReferences = 5;
std::string reply_references(std::string_view references, std::string_view message_id);

// Why `address` cannot be an account's address, or "" when it can (review item 12): it must be
// valid_mail_address(), its domain must have a dot and not be `localhost` (or end with
// `.localhost`) or an address literal, its local part must not start with `-` or `|` (options
// and pipes to a badly written MTA) nor hold `%` or `!` (source routing through a relay), and it
// must not be `own` (the server's --mail-from, compared without case: a loop).
std::string signup_address_problem(std::string_view address, std::string_view own);

// A header's text for an outbound mail (issue 15 b: a Subject holds users' words): printable
// ASCII is kept as it is; anything else is encoded by GMime as RFC 2047 encoded words
// (`=?UTF-8?b?...?=`, each at most 75 bytes, separated by spaces so that a header folds between
// them). `text` is UTF-8 (invalid bytes become U+FFFD first). Never throws.
std::string encode_header_text(std::string_view text);

// `text` with every byte sequence that is not well-formed UTF-8 replaced by U+FFFD.
std::string sanitize_utf8(std::string_view text);

}  // namespace plateau::server
