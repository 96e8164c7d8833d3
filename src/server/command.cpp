#include "server/command.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/text.h"

namespace plateau::server {

namespace {

struct VerbWord {
  std::string_view word;
  Verb verb;
};

// Every accepted spelling, including pbmserv's aliases and typos (specs/phutball.md §10).
constexpr std::array kWords = {
    VerbWord{"register", Verb::kRegister},
    VerbWord{"signup", Verb::kRegister},
    VerbWord{"login", Verb::kLogin},
    VerbWord{"guest", Verb::kGuest},
    VerbWord{"logout", Verb::kLogout},
    VerbWord{"resume", Verb::kResume},
    VerbWord{"quit", Verb::kQuit},
    VerbWord{"exit", Verb::kQuit},
    VerbWord{"who", Verb::kWho},
    VerbWord{"games", Verb::kGames},
    VerbWord{"help", Verb::kHelp},
    VerbWord{"tables", Verb::kTables},
    VerbWord{"standings", Verb::kStandings},
    VerbWord{"ratings", Verb::kStandings},
    VerbWord{"ping", Verb::kPing},
    VerbWord{"limit", Verb::kLimit},
    VerbWord{"open", Verb::kOpen},
    VerbWord{"table", Verb::kTable},
    VerbWord{"join", Verb::kJoin},
    VerbWord{"leave", Verb::kLeave},
    VerbWord{"start", Verb::kStart},
    VerbWord{"startnosave", Verb::kStartNoSave},
    VerbWord{"option", Verb::kOption},
    VerbWord{"watch", Verb::kWatch},
    VerbWord{"say", Verb::kSay},
    VerbWord{"reset", Verb::kReset},
    VerbWord{"info", Verb::kInfo},
    VerbWord{"spielinfo", Verb::kInfo},
    VerbWord{"invite", Verb::kInvite},
    VerbWord{"move", Verb::kMove},
    VerbWord{"board", Verb::kMove},
    VerbWord{"mvoe", Verb::kMove},
    VerbWord{"queue", Verb::kQueue},
    VerbWord{"qmove", Verb::kQueue},
    VerbWord{"qboard", Verb::kQueue},
    VerbWord{"moveq", Verb::kQueue},
    VerbWord{"boardq", Verb::kQueue},
    VerbWord{"resign", Verb::kResign},
    VerbWord{"propose", Verb::kPropose},
    VerbWord{"accept", Verb::kAccept},
    VerbWord{"reject", Verb::kReject},
    VerbWord{"refuse", Verb::kReject},
    VerbWord{"undo", Verb::kUndo},
    VerbWord{"show", Verb::kShow},
    VerbWord{"chat", Verb::kChat},
    VerbWord{"challenge", Verb::kChallenge},
    VerbWord{"steps", Verb::kSteps},
    VerbWord{"resync", Verb::kResync},
    VerbWord{"notify", Verb::kNotify},
    VerbWord{"vacation", Verb::kVacation},
    VerbWord{"history", Verb::kHistory},
    VerbWord{"change", Verb::kChange},
    VerbWord{"signoff", Verb::kSignoff},
    VerbWord{"subscribe", Verb::kSubscribe},
    VerbWord{"unsubscribe", Verb::kUnsubscribe},
    VerbWord{"preview", Verb::kPreview},
    VerbWord{"submit", Verb::kSubmit},
    VerbWord{"confirm", Verb::kConfirm},
    VerbWord{"analyse", Verb::kAnalyse},
    VerbWord{"analyze", Verb::kAnalyse},
};

std::optional<Verb> find_verb(std::string_view word) {
  for (const auto& w : kWords) {
    if (w.word == word) return w.verb;
  }
  // pbmserv: `challenge` may be shortened to any prefix of 5 or more letters.
  if (word.size() >= 5 && std::string_view("challenge").substr(0, word.size()) == word) {
    return Verb::kChallenge;
  }
  return std::nullopt;
}

// Verbs that may follow a game word ("phutball move 101 H11").
bool takes_game_word(Verb v) {
  switch (v) {
    case Verb::kChallenge:
    case Verb::kMove:
    case Verb::kQueue:
    case Verb::kResign:
    case Verb::kPropose:
    case Verb::kAccept:
    case Verb::kReject:
    case Verb::kUndo:
    case Verb::kShow:
    case Verb::kChat:
    case Verb::kStandings:
    case Verb::kSteps:
    case Verb::kResync:
    case Verb::kNotify:    // pbmserv: `phutball notify ...`; the setting is the account's
    case Verb::kVacation:
    case Verb::kGames:
    case Verb::kTables:
    case Verb::kHelp:
    case Verb::kOpen:
    case Verb::kTable:
    case Verb::kLimit:
    case Verb::kHistory:
    case Verb::kChange:
    case Verb::kSignoff:
    case Verb::kSubscribe:
    case Verb::kUnsubscribe:
    case Verb::kPreview:
    case Verb::kSubmit:
    case Verb::kConfirm:
    case Verb::kAnalyse:
      return true;
    default:
      return false;
  }
}

struct Token {
  std::string_view text;
  std::size_t end;  // offset just after the token in the line
};

std::vector<Token> tokenize(std::string_view line) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size()) break;
    std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    out.push_back({line.substr(start, i - start), i});
  }
  return out;
}

bool is_word(std::string_view s) {
  if (s.empty() || s.size() > 32) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

std::optional<int> parse_number(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

int require_number(std::string_view s, std::string_view what) {
  auto n = parse_number(s);
  if (!n) {
    throw CommandError("bad " + std::string(what) + " '" + std::string(s) + "': expected a number");
  }
  return *n;
}

// "TOKEN#n" -> TOKEN and n.
std::string split_ply(std::string_view token, std::optional<int>& ply) {
  std::size_t hash = token.rfind('#');
  if (hash == std::string_view::npos) return std::string(token);
  ply = require_number(token.substr(hash + 1), "ply number after '#'");
  if (hash == 0) throw CommandError("missing move before '#'");
  return std::string(token.substr(0, hash));
}

void expect_args(const Command& c, std::size_t min, std::size_t max, std::string_view usage) {
  if (c.args.size() < min || c.args.size() > max) {
    throw CommandError("usage: " + std::string(usage));
  }
}

// Takes a leading board number off the arguments when there is one.
void take_board(Command& c) {
  if (c.args.empty()) return;
  std::string_view first = c.args.front();
  std::optional<int> ply;
  std::size_t hash = first.find('#');
  std::string_view number = first.substr(0, hash);
  if (auto n = parse_number(number)) {
    c.board = *n;
    if (hash != std::string_view::npos) {
      split_ply(first, ply);
      c.ply_check = ply;
    }
    c.args.erase(c.args.begin());
  }
}

}  // namespace

std::string_view verb_name(Verb verb) {
  for (const auto& w : kWords) {
    if (w.verb == verb) return w.word;
  }
  return "?";
}

std::optional<Command> parse_command(std::string_view line) {
  if (line.size() > kMaxLineBytes) {
    throw CommandError("line too long: " + std::to_string(line.size()) + " bytes, at most " +
                       std::to_string(kMaxLineBytes));
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  for (char c : line) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t') || u == 0x7f) {
      throw CommandError("control character " + std::to_string(u) + " in the line");
    }
  }
  std::vector<Token> tokens = tokenize(line);
  if (tokens.empty()) return std::nullopt;

  Command c;
  std::size_t next = 1;
  std::string first = to_lower(tokens[0].text);
  if (!first.empty() && first.front() == '/') first.erase(0, 1);
  std::optional<Verb> verb = find_verb(first);
  if (!verb && tokens.size() >= 2) {
    std::string second = to_lower(tokens[1].text);
    if (!second.empty() && second.front() == '/') second.erase(0, 1);
    std::optional<Verb> v2 = find_verb(second);
    if (v2 && takes_game_word(*v2) && is_word(first)) {
      c.game = first;
      verb = v2;
      next = 2;
    }
  }
  if (!verb) {
    std::string shown(tokens[0].text.substr(0, 40));
    throw CommandError("unknown command '" + shown + "'; type help for the list");
  }
  c.verb = *verb;
  const std::size_t verb_end = tokens[next - 1].end;
  auto rest_of_line = [&](std::size_t from_token) -> std::string {
    std::size_t from = from_token < tokens.size()
                           ? static_cast<std::size_t>(tokens[from_token].text.data() - line.data())
                           : line.size();
    return std::string(trim(line.substr(std::min(from, line.size()))));
  };
  (void)verb_end;

  // Free-text verbs keep the rest of the line verbatim.
  if (c.verb == Verb::kSay) {
    c.text = rest_of_line(next);
    if (c.text.empty()) throw CommandError("usage: /say TEXT");
    return c;
  }
  if (c.verb == Verb::kChat) {
    if (next < tokens.size()) {
      if (auto n = parse_number(tokens[next].text)) {
        c.board = *n;
        ++next;
      }
    }
    c.text = rest_of_line(next);
    if (c.text.empty()) throw CommandError("usage: chat [BOARD] TEXT");
    return c;
  }

  // Secrets are taken verbatim: a resume token (base64url) or a password may begin with '-'.
  const bool verbatim = c.verb == Verb::kRegister || c.verb == Verb::kLogin ||
                        c.verb == Verb::kResume || c.verb == Verb::kChange;
  for (std::size_t i = next; i < tokens.size(); ++i) {
    std::string_view t = tokens[i].text;
    if (verbatim) {
      c.args.emplace_back(t);
    } else if (t.size() > 2 && t.substr(0, 2) == "--") {
      std::string flag = to_lower(t.substr(2));
      if (!is_word(flag)) throw CommandError("bad option word '" + std::string(t) + "'");
      c.flags.push_back(flag);
    } else if (t.size() > 1 && t[0] == '-' && !std::isdigit(static_cast<unsigned char>(t[1])) &&
               c.verb != Verb::kMove && c.verb != Verb::kQueue && c.verb != Verb::kSubmit) {
      std::size_t eq = t.find('=');
      if (eq == std::string_view::npos || eq == 1 || eq + 1 == t.size()) {
        throw CommandError("bad parameter '" + std::string(t) + "': expected -name=value");
      }
      std::string name = to_lower(t.substr(1, eq - 1));
      if (!is_word(name)) throw CommandError("bad parameter name '" + name + "'");
      c.params.emplace_back(name, std::string(t.substr(eq + 1)));
    } else {
      c.args.emplace_back(t);
    }
  }

  switch (c.verb) {
    case Verb::kRegister:
      expect_args(c, 2, 2, "register NAME PASSWORD");
      break;
    case Verb::kLogin:
      expect_args(c, 2, 2, "login NAME PASSWORD");
      break;
    case Verb::kResume:
      expect_args(c, 1, 1, "resume TOKEN");
      break;
    case Verb::kGuest:
    case Verb::kLogout:
    case Verb::kQuit:
    case Verb::kWho:
    case Verb::kPing:
    case Verb::kStart:
    case Verb::kStartNoSave:
    case Verb::kReset:
      expect_args(c, 0, 0, std::string(verb_name(c.verb)));
      break;
    case Verb::kGames:
    case Verb::kTables:
      expect_args(c, 0, 1, std::string(verb_name(c.verb)) + " [GAME]");
      if (!c.args.empty()) {
        c.game = to_lower(c.args[0]);
        c.args.clear();
      }
      break;
    case Verb::kHelp:
      expect_args(c, 0, 1, "help [GAME|COMMAND]");
      break;
    case Verb::kLimit:
      expect_args(c, 0, 1, "limit [N|accept|reject]");
      if (!c.args.empty()) {
        const std::string word = to_lower(c.args[0]);
        if (word != "accept" && word != "reject" && !parse_number(word)) {
          throw CommandError("usage: limit [N|accept|reject]");
        }
      }
      break;
    case Verb::kNotify:
    case Verb::kVacation: {  // one optional setting word, lower-cased
      const bool notify = c.verb == Verb::kNotify;
      const std::string usage = notify ? "notify [every|digest|off]" : "vacation [DAYS|off]";
      expect_args(c, 0, 1, usage);
      if (c.args.empty()) break;
      const std::string w = c.args[0] = to_lower(c.args[0]);
      const bool known = w == "off" || (notify ? w == "every" || w == "digest"
                                               : parse_number(w).has_value());
      if (!known) throw CommandError("usage: " + usage);
      break;
    }
    case Verb::kStandings:
      expect_args(c, c.game.empty() ? 1 : 0, c.game.empty() ? 1 : 0, "standings GAME");
      if (!c.args.empty()) {
        c.game = to_lower(c.args[0]);
        c.args.clear();
      }
      break;
    case Verb::kOpen: {
      if (c.game.empty()) {
        if (c.args.empty()) throw CommandError("usage: /open GAME [NAME=VALUE ...]");
        c.game = to_lower(c.args[0]);
        c.args.erase(c.args.begin());
      }
      for (const std::string& a : c.args) {
        std::size_t eq = a.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == a.size()) {
          throw CommandError("bad option '" + a + "': expected NAME=VALUE");
        }
        c.params.emplace_back(to_lower(a.substr(0, eq)), a.substr(eq + 1));
      }
      c.args.clear();
      break;
    }
    case Verb::kTable:
      if (c.game.empty() && c.args.size() == 2) {
        c.game = to_lower(c.args[0]);
        c.args.erase(c.args.begin());
      }
      expect_args(c, 1, 1, "/table [GAME] NUMBER");
      c.board = require_number(c.args[0], "table number");
      c.args.clear();
      break;
    case Verb::kJoin:
      expect_args(c, 0, 2, "/join [SEAT] or /join cpu:LEVEL SEAT");
      break;
    case Verb::kLeave:
    case Verb::kWatch:
    case Verb::kInfo:
      take_board(c);
      expect_args(c, 0, 0, std::string("/") + std::string(verb_name(c.verb)) + " [BOARD]");
      break;
    case Verb::kInvite:
      take_board(c);
      expect_args(c, 1, 1, "/invite [BOARD] NAME");
      if (c.args[0].size() > 40) throw CommandError("user name too long");
      break;
    case Verb::kOption: {
      // /option NAME=VALUE, /option NAME VALUE, or a bare BSW flag /option NAME.
      if (c.args.size() == 1) {
        const std::string& a = c.args[0];
        std::size_t eq = a.find('=');
        if (eq == std::string::npos) {
          c.params.emplace_back(to_lower(a), "");
        } else if (eq == 0 || eq + 1 == a.size()) {
          throw CommandError("bad option '" + a + "': expected NAME=VALUE");
        } else {
          c.params.emplace_back(to_lower(a.substr(0, eq)), a.substr(eq + 1));
        }
      } else if (c.args.size() == 2) {
        c.params.emplace_back(to_lower(c.args[0]), c.args[1]);
      } else {
        throw CommandError("usage: /option NAME=VALUE");
      }
      c.args.clear();
      break;
    }
    case Verb::kChallenge:
      if (c.args.size() < 2) {
        throw CommandError("usage: GAME challenge [-name=value ...] USER1 USER2 [...]");
      }
      for (const std::string& a : c.args) {
        if (a.size() > 40) throw CommandError("user name too long");
      }
      break;
    case Verb::kMove:
    case Verb::kQueue: {
      take_board(c);
      std::string usage = std::string(verb_name(c.verb)) + " [BOARD] MOVE[#n]";
      expect_args(c, 1, 1, usage);
      c.ply_check.reset();
      std::string move = split_ply(c.args[0], c.ply_check);
      std::string lower = to_lower(move);
      // pbmserv: `move BOARD resign|propose|accept|reject|undo` are the commands themselves.
      if (c.verb == Verb::kMove) {
        if (lower == "resign") c.verb = Verb::kResign;
        if (lower == "propose") c.verb = Verb::kPropose;
        if (lower == "accept") c.verb = Verb::kAccept;
        if (lower == "reject") c.verb = Verb::kReject;
        if (lower == "undo") c.verb = Verb::kUndo;
      } else if (lower == "resign") {
        c.verb = Verb::kResign;  // a queued resignation is a resignation out of turn
      }
      if (c.verb == Verb::kMove || c.verb == Verb::kQueue) {
        c.args = {move};
      } else {
        c.args.clear();
      }
      break;
    }
    case Verb::kResign:
    case Verb::kPropose:
    case Verb::kAccept:
    case Verb::kReject:
    case Verb::kUndo:
    case Verb::kShow:
      take_board(c);
      expect_args(c, 0, 0, std::string(verb_name(c.verb)) + " [BOARD]");
      break;
    case Verb::kSteps:
      take_board(c);
      if (c.args.size() > 64) throw CommandError("too many steps");
      break;
    case Verb::kResync:
      // The board number is required: a resync names what it follows.
      if (c.game.empty() && c.args.size() == 3) {
        c.game = to_lower(c.args[0]);
        c.args.erase(c.args.begin());
      }
      expect_args(c, 2, 2, "resync [GAME] BOARD SEQ");
      c.board = require_number(c.args[0], "board number");
      require_number(c.args[1], "seq");
      c.args.erase(c.args.begin());
      break;
    case Verb::kHistory:
      expect_args(c, 0, 1, "history [USER]");
      if (!c.args.empty() && c.args[0].size() > 40) throw CommandError("user name too long");
      break;
    case Verb::kChange: {
      const std::string usage = "change password OLD NEW | change address ADDRESS";
      if (c.args.empty()) throw CommandError("usage: " + usage);
      c.args[0] = to_lower(c.args[0]);
      if (c.args[0] == "password") {
        expect_args(c, 3, 3, "change password OLD NEW");
      } else if (c.args[0] == "address") {
        expect_args(c, 2, 2, "change address ADDRESS");
      } else {
        throw CommandError("usage: " + usage);
      }
      break;
    }
    case Verb::kSignoff:
      expect_args(c, 0, 0, "signoff");
      break;
    case Verb::kSubscribe:
    case Verb::kConfirm:
      take_board(c);
      expect_args(c, 0, 0, std::string(verb_name(c.verb)) + " BOARD");
      if (!c.board) throw CommandError("usage: " + std::string(verb_name(c.verb)) + " BOARD");
      break;
    case Verb::kUnsubscribe:
      take_board(c);
      if (c.board) {
        expect_args(c, 0, 0, "unsubscribe BOARD | unsubscribe all");
      } else {
        expect_args(c, 1, 1, "unsubscribe BOARD | unsubscribe all");
        c.args[0] = to_lower(c.args[0]);
        if (c.args[0] != "all") throw CommandError("usage: unsubscribe BOARD | unsubscribe all");
      }
      break;
    case Verb::kPreview: {
      const std::string usage = "preview BOARD MOVE... | preview new 2 [-NAME=VALUE ...] MOVE...";
      if (!c.args.empty() && to_lower(c.args[0]) == "new") {
        if (c.args.size() < 2 || !parse_number(c.args[1])) throw CommandError("usage: " + usage);
        c.args[0] = "new";
      } else {
        take_board(c);
        if (!c.board || c.args.empty()) throw CommandError("usage: " + usage);
        if (!c.params.empty() || !c.flags.empty()) {
          throw CommandError("preview BOARD takes no -name=value parameters (only preview new)");
        }
      }
      const std::size_t moves = c.args.size() - (c.args[0] == "new" ? 2 : 0);
      if (moves > kMaxPreviewMoves) {
        throw CommandError("too many moves: a preview replays at most " +
                           std::to_string(kMaxPreviewMoves));
      }
      break;
    }
    case Verb::kSubmit: {
      take_board(c);
      expect_args(c, 1, 1, "submit BOARD MOVE[#n]");
      if (!c.board) throw CommandError("usage: submit BOARD MOVE[#n]");
      c.ply_check.reset();
      c.args = {split_ply(c.args[0], c.ply_check)};
      break;
    }
    case Verb::kAnalyse:
      // The board is required (a position is named, not "the current table") and so is its
      // number: "analyse 12#7 3", "analyse bohnduell 12#7", "bohnduell analyse 12#7".
      if (c.game.empty() && !c.args.empty() &&
          !parse_number(c.args[0].substr(0, c.args[0].find('#')))) {
        if (!is_word(c.args[0])) throw CommandError("usage: analyse [GAME] BOARD[#n] [LEVEL]");
        c.game = to_lower(c.args[0]);
        c.args.erase(c.args.begin());
      }
      take_board(c);
      expect_args(c, 0, 1, "analyse [GAME] BOARD[#n] [LEVEL]");
      if (!c.board) throw CommandError("usage: analyse [GAME] BOARD[#n] [LEVEL]");
      break;
    case Verb::kSay:
    case Verb::kChat:
      break;
  }
  if (c.verb != Verb::kChallenge && c.verb != Verb::kOption && c.verb != Verb::kOpen &&
      c.verb != Verb::kPreview && (!c.params.empty() || !c.flags.empty())) {
    throw CommandError(std::string(verb_name(c.verb)) + " takes no -name=value parameters");
  }
  return c;
}

std::optional<Verb> verb_of_word(std::string_view word) { return find_verb(word); }
bool verb_takes_game_word(Verb verb) { return takes_game_word(verb); }

bool takes_comment(Verb verb) {
  switch (verb) {
    case Verb::kMove:
    case Verb::kResign:
    case Verb::kPropose:
    case Verb::kAccept:
    case Verb::kReject:
    case Verb::kUndo:
    case Verb::kConfirm:
      return true;
    default:
      return false;
  }
}

}  // namespace plateau::server
