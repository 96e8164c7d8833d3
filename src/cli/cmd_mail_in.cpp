// `plateau mail-in [--lmtp HOST:PORT]`: hands the one RFC 5322 message on standard input to a
// running `plateau serve --lmtp-port` (for procmail, fetchmail's --mda, a .forward pipe; see
// docs/MAIL.md). Exit status as sysexits.h, which those programs understand: 0 delivered (or
// dropped by the server as mail from a program), 75 (EX_TEMPFAIL) the server cannot be reached
// or answered 4xx (try again later), 65 (EX_DATAERR) the input is not a message or the server
// refused it for good (5xx), 78 (EX_CONFIG) a bad --lmtp (a configuration mistake must not
// bounce every mail for good, as 65 would make fetchmail or procmail do).
#include <cstdlib>
#include <iostream>
#include <iterator>

#include "cli/cli_common.h"
#include "server/asio.h"
#include "server/mail_message.h"

namespace plateau::cli {

namespace {

constexpr int kExOk = 0;
constexpr int kExDataErr = 65;
constexpr int kExTempFail = 75;
constexpr int kExConfig = 78;

// The reply of an SMTP/LMTP server (the last line of a multi-line one): its code, or 0.
int read_reply(std::iostream& s, std::string& text) {
  std::string line;
  while (std::getline(s, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    text = line;
    if (line.size() < 4 || line[3] != '-') return std::atoi(line.substr(0, 3).c_str());
  }
  return 0;
}

int mail_in(const std::string& target) {
  const auto colon = target.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == target.size()) {
    std::cerr << "plateau mail-in: bad --lmtp \"" << target << "\": it takes HOST:PORT\n";
    return kExConfig;
  }
  std::string raw((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  auto mail = server::parse_mail(raw);
  if (!mail) {
    std::cerr << "plateau mail-in: standard input is not a mail message\n";
    return kExDataErr;
  }
  boost::asio::ip::tcp::iostream s;
  s.expires_after(std::chrono::seconds(120));
  s.connect(target.substr(0, colon), target.substr(colon + 1));
  if (!s) {
    std::cerr << "plateau mail-in: cannot reach " << target << ": " << s.error().message() << "\n";
    return kExTempFail;
  }
  std::string text;
  auto step = [&](const std::string& command, int want) -> int {
    if (!command.empty()) s << command << "\r\n" << std::flush;
    const int code = read_reply(s, text);
    if (code == want) return 0;
    std::cerr << "plateau mail-in: " << (code ? text : "connection lost") << "\n";
    return code >= 500 ? kExDataErr : kExTempFail;
  };
  const std::string from = mail->null_sender ? "" : mail->sender();
  if (int rc = step("", 220)) return rc;
  if (int rc = step("LHLO localhost", 250)) return rc;
  if (int rc = step("MAIL FROM:<" + from + ">", 250)) return rc;
  if (int rc = step("RCPT TO:<plateau@localhost>", 250)) return rc;
  if (int rc = step("DATA", 354)) return rc;
  std::string data;
  for (std::size_t at = 0; at < raw.size();) {
    std::size_t nl = raw.find('\n', at);
    std::string line = raw.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? raw.size() : nl + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line[0] == '.') data += '.';  // RFC 5321 §4.5.2
    data += line + "\r\n";
  }
  s << data << ".\r\n" << std::flush;
  const int code = read_reply(s, text);
  s << "QUIT\r\n" << std::flush;
  if (code >= 200 && code < 300) return kExOk;
  std::cerr << "plateau mail-in: " << (code ? text : "connection lost") << "\n";
  return code >= 500 ? kExDataErr : kExTempFail;
}

}  // namespace

void add_mail_in_command(CLI::App& app) {
  auto target = std::make_shared<std::string>("127.0.0.1:8024");
  auto* cmd = app.add_subcommand(
      "mail-in", "Hand the mail on standard input to `plateau serve --lmtp-port` (exit 0, 65, 75, 78)");
  cmd->add_option("--lmtp", *target, "HOST:PORT of the server's LMTP listener")
      ->capture_default_str();
  cmd->callback([target] {
    const int rc = mail_in(*target);
    std::cout << std::flush;
    std::exit(rc);
  });
}

}  // namespace plateau::cli
