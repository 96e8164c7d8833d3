// rewrite_subject, comment_line and mail_help (mail_command.h): a Subject with inline
// credentials as a command line of the text transport. Only the words are moved.
#include <algorithm>

#include "core/text.h"
#include "server/command.h"
#include "server/mail_command.h"

namespace plateau::server {

namespace {

bool is_digits(std::string_view s) {
  return !s.empty() && s.size() <= 9 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "101" or "101#3" -> 101.
std::optional<int> board_number(std::string_view word) {
  const auto hash = word.find('#');
  const std::string_view n = word.substr(0, hash);
  if (!is_digits(n)) return std::nullopt;
  return std::stoi(std::string(n));
}

bool needs_credentials(Verb v) {
  switch (v) {
    case Verb::kMove:
    case Verb::kQueue:
    case Verb::kResign:
    case Verb::kPropose:
    case Verb::kAccept:
    case Verb::kReject:
    case Verb::kUndo:
    case Verb::kChat:
    case Verb::kSubmit:
    case Verb::kConfirm:
    case Verb::kSubscribe:
    case Verb::kUnsubscribe:
      return true;
    default:
      return false;
  }
}

// Commands of an account rather than a board: `[GAME] VERB [SUB] USERID PASSWORD [REST ...]`.
bool account_command(Verb v) {
  return v == Verb::kLimit || v == Verb::kChange || v == Verb::kSignoff;
}

std::string joined(const std::vector<std::string_view>& words, std::size_t from) {
  std::string out;
  for (std::size_t i = from; i < words.size(); ++i) {
    if (!out.empty()) out += ' ';
    out += words[i];
  }
  return out;
}

MailCommand error(std::string text) {
  MailCommand c;
  c.kind = MailCommand::Kind::kError;
  c.error = std::move(text);
  return c;
}

}  // namespace

MailCommand rewrite_subject(std::string_view subject) {
  const std::vector<std::string_view> w = split_ws(subject);
  if (w.empty()) {
    return error(
        "the Subject is empty: it must hold one command, e.g. "
        "`phutball move BOARD USERID PASSWORD MOVE`");
  }
  if (subject.size() > kMaxLineBytes) {
    return error("the Subject is too long: at most " + std::to_string(kMaxLineBytes) + " bytes");
  }
  const std::string first = to_lower(w[0]);
  MailCommand c;
  if (first == "signup") {
    if (w.size() < 3 || w.size() > 4) return error("usage: signup USERID PASSWORD [ADDRESS]");
    c.kind = MailCommand::Kind::kSignup;
    c.user = std::string(w[1]);
    c.password = std::string(w[2]);
    if (w.size() == 4) c.address = std::string(w[3]);
    c.line = "register " + c.user + " " + c.password;
    return c;
  }
  std::size_t at = 0;  // index of the verb
  std::optional<Verb> verb = verb_of_word(first);
  if (!verb && w.size() >= 2) {
    auto v2 = verb_of_word(to_lower(w[1]));
    if (v2 && verb_takes_game_word(*v2)) {
      verb = v2;
      at = 1;
      c.game = first;
    }
  }
  if (!verb) {
    c.kind = MailCommand::Kind::kPlain;  // parse_command says what is wrong
    c.line = std::string(trim(subject));
    return c;
  }
  if (*verb == Verb::kChallenge) {
    c.kind = MailCommand::Kind::kChallenge;
    for (std::size_t i = at + 1; i < w.size(); ++i) {
      if (!w[i].empty() && w[i][0] != '-') c.players.emplace_back(w[i]);
    }
    c.line = std::string(trim(subject));
    return c;
  }
  if (*verb == Verb::kNotify || *verb == Verb::kVacation) {
    // [GAME] notify|vacation USERID PASSWORD [SETTING]: the account's own setting, no board.
    const std::string word = to_lower(w[at]);
    if (w.size() < at + 3 || w.size() > at + 4) {
      return error("usage: " + word + " USERID PASSWORD " +
                   (*verb == Verb::kNotify ? "[every|digest|off]" : "[DAYS|off]"));
    }
    c.kind = MailCommand::Kind::kCredentials;
    c.user = std::string(w[at + 1]);
    c.password = std::string(w[at + 2]);
    c.line = word + (w.size() == at + 4 ? " " + std::string(w[at + 3]) : std::string());
    c.subject = "Plateau: " + c.line;
    return c;
  }
  // limit USERID PASSWORD N, change password USERID OLD NEW, change address USERID PASSWORD
  // ADDRESS, signoff USERID PASSWORD, unsubscribe all USERID PASSWORD.
  const bool all = *verb == Verb::kUnsubscribe && w.size() > at + 1 && to_lower(w[at + 1]) == "all";
  if (account_command(*verb) || all) {
    std::size_t u = at + 1;  // the user's word
    std::string sub;
    if (*verb == Verb::kChange || all) {
      if (w.size() > at + 1) sub = to_lower(w[at + 1]);
      u = at + 2;
    }
    if (w.size() < u + 2) {
      if (*verb == Verb::kLimit) return error("usage: limit USERID PASSWORD N|accept|reject");
      if (*verb == Verb::kSignoff) return error("usage: signoff USERID PASSWORD");
      if (all) return error("usage: unsubscribe all USERID PASSWORD");
      return error(
          "usage: change password USERID OLD NEW | change address USERID PASSWORD ADDRESS");
    }
    c.kind = MailCommand::Kind::kCredentials;
    c.user = std::string(w[u]);
    c.password = std::string(w[u + 1]);
    c.line = (c.game.empty() ? std::string() : c.game + " ") + std::string(w[at]);
    if (!sub.empty()) c.line += " " + sub;
    c.subject = "Plateau: " + to_lower(w[at]) + (sub.empty() ? "" : " " + sub);
    if (sub == "password") c.line += " " + c.password;  // change password OLD NEW
    const std::string rest = joined(w, u + 2);
    if (!rest.empty()) c.line += " " + rest;
    return c;
  }
  if (!needs_credentials(*verb)) {
    c.kind = MailCommand::Kind::kPlain;
    if (at + 1 < w.size()) c.board = board_number(w[at + 1]);
    c.line = std::string(trim(subject));
    return c;
  }
  // [GAME] VERB BOARD USERID PASSWORD [REST ...]
  const std::string verb_word(w[at]);
  if (w.size() < at + 4 || !board_number(w[at + 1])) {
    return error("usage: " + (c.game.empty() ? std::string() : c.game + " ") + to_lower(verb_word) +
                 " BOARD USERID PASSWORD" +
                 (*verb == Verb::kMove || *verb == Verb::kQueue || *verb == Verb::kSubmit
                      ? " MOVE[#n]"
                      : ""));
  }
  c.kind = MailCommand::Kind::kCredentials;
  c.board = board_number(w[at + 1]);
  c.user = std::string(w[at + 2]);
  c.password = std::string(w[at + 3]);
  c.chat = *verb == Verb::kChat;
  c.takes_comment = !c.chat;
  c.line =
      (c.game.empty() ? std::string() : c.game + " ") + verb_word + " " + std::string(w[at + 1]);
  const std::string rest = joined(w, at + 4);
  if (!rest.empty()) c.line += " " + rest;
  return c;
}

std::string comment_line(std::string_view body) {
  std::string out;
  for (auto piece : split(body, '\n')) {
    const std::string_view line = trim(piece);
    if (line.empty()) continue;
    if (!out.empty()) out += " / ";
    out += line;
  }
  for (char& ch : out) {
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = ' ';
  }
  if (out.size() > 1000) {
    std::size_t n = 1000;
    while (n > 0 && (static_cast<unsigned char>(out[n]) & 0xC0) == 0x80) --n;
    out.resize(n);
  }
  return out;
}

const std::string& mail_help() {
  static const std::string kText =
      "By mail the Subject is one command. Commands that act for you carry your USERID and\n"
      "PASSWORD after the board number (or after the command's words); the body is a comment.\n"
      "  signup USERID PASSWORD [ADDRESS]\n"
      "  phutball challenge [-handicap=N] USERID1 USERID2\n"
      "  phutball move BOARD USERID PASSWORD MOVE[#n]   (also propose|accept|reject|undo|resign)\n"
      "  phutball queue BOARD USERID PASSWORD MOVE[#n]\n"
      "  phutball chat BOARD USERID PASSWORD\n"
      "  phutball submit BOARD USERID PASSWORD MOVE[#n], then phutball confirm BOARD USERID "
      "PASSWORD\n"
      "  phutball preview BOARD MOVE ...  |  phutball preview new 2 [-handicap=N] MOVE ...\n"
      "  phutball show BOARD[#n]  |  phutball history USERID  |  standings phutball\n"
      "  phutball subscribe BOARD USERID PASSWORD  |  unsubscribe BOARD|all USERID PASSWORD\n"
      "  limit USERID PASSWORD N|accept|reject\n"
      "  change password USERID OLD NEW  |  change address USERID PASSWORD ADDRESS\n"
      "  signoff USERID PASSWORD\n";
  return kText;
}

}  // namespace plateau::server
