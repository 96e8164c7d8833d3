// MailIntake (mail_session.h): one inbound mail, run as one command of a client that exists for
// that mail alone, on its own strand of the server's event loop.
#include "server/mail_session.h"

#include <spdlog/spdlog.h>

#include <mutex>
#include <tuple>

#include "core/registry.h"
#include "core/text.h"
#include "server/event.h"
#include "server/lobby.h"
#include "server/mail_dedup.h"
#include "server/mail_message.h"
#include "server/mail_outbox.h"
#include "server/render.h"

namespace plateau::server {

namespace {

// How much of the original an error mail quotes (review item 3: a forged mail must not make the
// server send a long text of the attacker's to anyone).
constexpr std::size_t kMaxQuotedBytes = 4 * 1024;

// A client that lives for one mail: it keeps the answers to its commands.
class MailClient : public Client {
 public:
  MailClient(boost::asio::any_io_executor strand, std::string sender)
      : strand_(std::move(strand)), sender_(std::move(sender)) {}
  void send(const Event& event, bool reply) override {
    if (!reply) return;  // the board's own mail tells the players
    std::lock_guard lock(mutex_);
    replies_.push_back(event);
  }
  void close() override {}
  bool by_mail() const override { return true; }
  std::string describe() const override { return "mail " + sender_; }
  std::string address() const override { return "mail:" + sender_; }
  void on_strand(std::function<void()> fn) override { boost::asio::post(strand_, std::move(fn)); }
  std::vector<Event> take() {
    std::lock_guard lock(mutex_);
    return std::exchange(replies_, {});
  }

 private:
  boost::asio::any_io_executor strand_;
  std::string sender_;
  std::mutex mutex_;
  std::vector<Event> replies_;
};

std::string error_of(const std::vector<Event>& events) {
  for (const auto& e : events) {
    if (e.type == "error") return e.data.value("message", std::string("error"));
  }
  return {};
}

// True when an answer is a table event (the board's mail tells every player of it).
bool told_the_table(const std::vector<Event>& events) {
  for (const auto& e : events) {
    if (e.seq > 0) return true;
  }
  return false;
}

// Refusals that pass: the mail server should try again later rather than bounce. A login
// back-off is not one of them (issue 15 g): held mail would be retried for days, and anyone
// could keep a user's mail waiting by sending wrong passwords; it gets an error mail ("too many
// failed logins for NAME; try again in N s") and 250, and the throttle still bounds guessing.
//
// Several nodes: the owner of the board cannot be reached (dead, frozen, or taken over while
// the command was on its way) is one of them: the mail server delivers again once another node
// serves the board, and a move re-sent with its #n is played once (the mail's pair is not
// recorded as run before a 250).
bool temporary(const std::string& why) {
  return why.find("which cannot be reached now") != std::string::npos ||
         why.find("cannot be looked up now") != std::string::npos ||
         why.find("is served by another node now") != std::string::npos ||
         why.find("could not be saved") != std::string::npos ||
         why.find("could not store") != std::string::npos ||
         why.find("server busy") != std::string::npos ||
         why.find("unavailable until the server restarts") != std::string::npos;
}

// One mail, from parse to answer.
class Run : public std::enable_shared_from_this<Run> {
 public:
  Run(boost::asio::io_context& io, Lobby& lobby, MailOutbox& outbox, std::string raw,
      InboundMail mail, std::function<void(LmtpReply)> done)
      : strand_(boost::asio::make_strand(io)),
        lobby_(lobby),
        outbox_(outbox),
        raw_(std::move(raw)),
        mail_(std::move(mail)),
        done_(std::move(done)),
        client_(std::make_shared<MailClient>(strand_, mail_.sender())) {}

  void start() {
    boost::asio::post(strand_, [self = shared_from_this()] { self->begin(); });
  }

 private:
  using Next = std::function<void(std::vector<Event>)>;

  void begin() {
    lobby_.connected(client_);
    cmd_ = rewrite_subject(mail_.subject);
    spdlog::info("mail from {}: {}", mail_.sender(),
                 cmd_.kind == MailCommand::Kind::kError ? cmd_.error : cmd_.line);
    switch (cmd_.kind) {
      case MailCommand::Kind::kError:
        return fail(cmd_.error);
      case MailCommand::Kind::kSignup:
        return signup();
      case MailCommand::Kind::kChallenge:
        return challenge();
      case MailCommand::Kind::kCredentials:
        return with_credentials();
      case MailCommand::Kind::kPlain:
        return plain();
    }
  }

  // Runs one text command line as the mail's client; `next` gets its answers, on the strand.
  // `comment` goes with the command into the same table action (Lobby::handle).
  void exec(const std::string& line, Next next, const std::string& comment = {}) {
    client_->take();
    auto self = shared_from_this();
    lobby_.handle(
        client_, line,
        [self, next = std::move(next)] {
          boost::asio::post(self->strand_, [self, next] { next(self->client_->take()); });
        },
        comment);
  }

  // The account and its address are one row, stored at once (issue 15 f): a store failure
  // leaves no account behind. No login happens: a mail never holds a resume token.
  void signup() {
    std::string address = cmd_.address.empty() ? mail_.sender() : cmd_.address;
    if (auto why = signup_address_problem(address, outbox_.settings().from); !why.empty())
      return fail("not a usable address: " + std::string(utf8_prefix(address, 80)) + " (" + why +
                  ")");
    auto self = shared_from_this();
    auto done = [self, address](std::string user, std::string error) {
      boost::asio::post(self->strand_, [self, address, user, error] {
        if (!error.empty()) return self->fail(error);
        self->reply("Plateau Signup " + user,
                    "Welcome, " + user + ". Your account is created; its mail goes to " +
                        address + ".\n");
      });
    };
    try {
      lobby_.accounts().register_account(cmd_.user, cmd_.password, done, address);
    } catch (const std::exception& x) {
      fail(x.what());
    }
  }

  void challenge() {
    std::string who;
    for (const auto& name : lobby_.accounts().names_with_email(mail_.sender())) {
      for (const auto& p : cmd_.players) {
        if (to_lower(p) == to_lower(name) && who.empty()) who = name;
      }
    }
    if (who.empty()) {
      return fail(
          "a challenge by mail must come from the registered address of one of its players; " +
          mail_.sender() + " is not the address of any of them");
    }
    lobby_.act_as(client_, who);
    exec(cmd_.line, [self = shared_from_this()](std::vector<Event> r) {
      if (auto e = error_of(r); !e.empty()) return self->fail(e);
      self->succeed();
    });
  }

  void with_credentials() {
    std::string line = cmd_.line;
    const std::string comment = comment_line(mail_.body);
    if (cmd_.chat) {
      if (comment.empty()) return fail("chat: the mail's body is the comment, and it is empty");
      line += " " + comment;
    }
    // The password is checked by Accounts::login itself, not by the `login` command: that
    // command issues a resume token, which would push one of the user's real tokens out
    // (max_tokens_per_user) for a connection that never uses it.
    auto self = shared_from_this();
    auto logged_in = [self, line, comment](std::string user, std::string error) {
      boost::asio::post(self->strand_, [self, line, comment, user, error] {
        if (!error.empty()) return self->fail(error);
        self->lobby_.act_as(self->client_, user);
        self->after_login(line, comment);
      });
    };
    try {
      lobby_.accounts().login(cmd_.user, cmd_.password, client_->address(), logged_in);
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }

  // The body goes with the command as its comment: the table adds it in the same action, so
  // that each player gets one mail (the page with the comment, Subject with ` **`).
  void after_login(const std::string& line, const std::string& comment) {
    exec(
        line,
        [self = shared_from_this()](std::vector<Event> r2) {
          if (auto e = error_of(r2); !e.empty()) return self->fail(e);
          if (!told_the_table(r2)) {
            // Nobody else heard of it (a queued move or resignation): answer the sender.
            std::string body;
            for (const auto& e : r2) body += render_text(e);
            std::string title = self->board_title();
            if (title.empty() && !self->lobby_.node_id().empty()) {  // a board of another node
              title = self->title_in(r2);
              if (title.empty()) title = self->named_title();
            }
            return self->reply(!title.empty()                ? title
                               : !self->cmd_.subject.empty() ? self->cmd_.subject
                                                             : "Plateau",
                               body);
          }
          self->succeed();
        },
        cmd_.takes_comment ? comment : std::string());
  }

  void plain() {
    exec(cmd_.line, [self = shared_from_this()](std::vector<Event> r) {
      if (auto e = error_of(r); !e.empty()) return self->fail(e);
      std::string body;
      for (const auto& e : r) body += render_text(e);
      if (to_lower(self->cmd_.line) == "help") body += "\n" + mail_help();
      std::string title = self->board_title();
      if (title.empty() && !self->lobby_.node_id().empty()) {  // a board of another node
        title = self->title_in(r);
        if (title.empty()) title = self->named_title();
      }
      self->reply(
          title.empty() ? "Plateau: " + std::string(utf8_prefix(self->mail_.subject, 80)) : title,
          body);
    });
  }

  // "Phutball Board 101" when the command names a board that exists, else "".
  std::string board_title() const {
    if (!cmd_.board) return {};
    for (const GameInfo* g : registered_games()) {
      if (!cmd_.game.empty() && g->name != cmd_.game) continue;
      if (lobby_.find_table(g->name, *cmd_.board))
        return g->title + " Board " + std::to_string(*cmd_.board);
    }
    return {};
  }

  // "Phutball Board 101" when one of `events` (a forwarded command's answers) is of the board
  // the command names, else "".
  std::string title_in(const std::vector<Event>& events) const {
    if (!cmd_.board) return {};
    for (const auto& e : events) {
      const auto& d = e.data;
      if (!d.is_object() || !d.contains("game") || !d["game"].is_string() ||
          !d.contains("board") || !d["board"].is_number_integer() ||
          d["board"].get<int>() != *cmd_.board) {
        continue;
      }
      for (const GameInfo* g : registered_games()) {
        if (g->name == d["game"].get<std::string>()) {
          return g->title + " Board " + std::to_string(*cmd_.board);
        }
      }
    }
    return {};
  }

  // "Phutball Board 101" from the command's own game and board ("" when it names no game):
  // for a command another node ran without an error, which says that board exists there and
  // that the sender may see it.
  std::string named_title() const {
    if (!cmd_.board || cmd_.game.empty()) return {};
    for (const GameInfo* g : registered_games()) {
      if (g->name == cmd_.game) return g->title + " Board " + std::to_string(*cmd_.board);
    }
    return {};
  }

  void fail(const std::string& why) {
    if (temporary(why)) return finish({451, "4.3.0 " + why.substr(0, 200)});
    const std::string title = board_title();
    if (title.empty() && cmd_.board && !lobby_.node_id().empty()) {
      // Several nodes: the board may be another node's. Its `show`, forwarded to the owner and
      // checked there as any command, names it and gives its page; a board the sender may not
      // see stays unnamed (issue 15 c).
      return exec((cmd_.game.empty() ? std::string() : cmd_.game + " ") + "show " +
                      std::to_string(*cmd_.board),
                  [self = shared_from_this(), why](std::vector<Event> r) {
                    const std::string remote = self->title_in(r);
                    if (!error_of(r).empty() || remote.empty()) {
                      return self->error_mail(why, "Plateau Error", "");
                    }
                    std::string page;
                    for (const auto& e : r) page += e.page;
                    self->error_mail(why, remote + " Error", page);
                  });
    }
    if (title.empty()) return error_mail(why, "Plateau Error", "");
    // The board is named in the Subject only when the sender may see it (as the user the mail
    // logged in as, or as nobody): a private board's number must not leak (issue 15 c).
    const std::string game = title.substr(0, title.find(' '));
    exec(to_lower(game) + " show " + std::to_string(*cmd_.board),
         [self = shared_from_this(), why, title](std::vector<Event> r) {
           if (!error_of(r).empty()) return self->error_mail(why, "Plateau Error", "");
           std::string page;
           for (const auto& e : r) page += e.page;
           self->error_mail(why, title + " Error", page);
         });
  }

  // The original is quoted (at most kMaxQuotedBytes) only to the address of an account: to
  // anyone else the mail says only the reason, so that it carries no text of a forger's.
  void error_mail(const std::string& why, const std::string& subject, const std::string& page) {
    std::string body = "Error: " + why + "\n" + (page.empty() ? "" : "\n" + page);
    if (!lobby_.accounts().names_with_email(mail_.return_path).empty()) {
      body += "\n";
      std::string original = sanitize_utf8(raw_.substr(0, kMaxQuotedBytes));
      if (raw_.size() > kMaxQuotedBytes) {
        original += "\n[... " + std::to_string(raw_.size() - kMaxQuotedBytes) +
                    " bytes not quoted]\n";
      }
      body += "Original message follows:\n\n" + original;
    }
    reply(subject, body);
  }

  // Mails `body` to the envelope sender (RFC 3834 §4: the Return-Path, never a From that may be
  // forged), durable before the LMTP answer.
  void reply(const std::string& subject, const std::string& body) {
    MailDraft d;
    d.to = mail_.return_path;
    d.subject = subject;
    d.body = body;
    static std::atomic<std::uint64_t> n{0};
    // Several nodes answer mail: the node's id keeps their Message-IDs apart.
    const std::string& node = lobby_.node_id();
    d.message_id = "reply." + (node.empty() ? std::string() : node + ".") +
                   std::to_string(TableServices::now_ms()) + "." + std::to_string(++n) + "@" +
                   outbox_.settings().domain();
    if (!mail_.message_id.empty()) {
      d.in_reply_to = mail_.message_id;
      d.references = reply_references(mail_.references, mail_.message_id);
    }
    outbox_.queue(std::move(d), [self = shared_from_this()](std::string e) {
      boost::asio::post(self->strand_, [self, e] {
        self->finish(e.empty() ? LmtpReply{250, "2.0.0 answered"} : LmtpReply{451, "4.3.0 " + e});
      });
    });
  }

  void succeed() { finish({250, "2.0.0 done"}); }

  void finish(LmtpReply reply) {
    if (!client_->token_selector.empty()) lobby_.revoke_token(client_->token_selector);
    client_->token_selector.clear();
    lobby_.disconnected(client_);
    auto done = std::move(done_);
    if (done) done(std::move(reply));
  }

  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  Lobby& lobby_;
  MailOutbox& outbox_;
  std::string raw_;
  InboundMail mail_;
  std::function<void(LmtpReply)> done_;
  std::shared_ptr<MailClient> client_;
  MailCommand cmd_;
};

}  // namespace

MailIntake::MailIntake(boost::asio::io_context& io, Lobby& lobby, MailOutbox& outbox,
                       MailDedup& dedup)
    : io_(io), lobby_(lobby), outbox_(outbox), dedup_(dedup) {}

void MailIntake::deliver(std::string message, std::string envelope_from,
                         std::function<void(LmtpReply)> done) {
  std::optional<InboundMail> mail;
  try {
    mail = parse_mail(message, envelope_from, true);
  } catch (const std::exception& e) {
    spdlog::warn("mail: cannot parse a message: {}", e.what());
  }
  if (!mail) return done({554, "5.6.0 not a message"});
  if (mail->automatic) {
    spdlog::info("mail from {}: dropped ({})", mail->sender(), mail->automatic_reason);
    return done({250, "2.0.0 dropped: " + mail->automatic_reason});
  }
  if (mail->return_path.empty()) {  // answers go to the envelope sender only
    spdlog::info("mail: dropped (no usable envelope sender address)");
    return done({250, "2.0.0 dropped: no sender address to answer"});
  }
  // A redelivery (our 250 was lost) must not run the command again (issue 15 a).
  const std::string sender = mail->return_path;
  const std::string id = mail->message_id;
  switch (dedup_.claim(sender, id)) {
    case MailDedup::Claim::kDone:
      spdlog::info("mail from {}: <{}> was already run; not again", sender, id);
      return done({250, "2.0.0 already done"});
    case MailDedup::Claim::kRunning:
      return done({451, "4.3.0 this message is being run; try again later"});
    case MailDedup::Claim::kRun:
    case MailDedup::Claim::kUnknown:
      break;
  }
  if (id.empty() || lobby_.node_id().empty()) {
    return run_mail(std::move(message), std::move(*mail), sender, id, std::move(done));
  }
  // Several nodes: the mail server may deliver again to another node than the one that ran
  // the mail. Its pair is in the database then (read on a worker: a round trip).
  using Held = std::tuple<std::string, InboundMail, std::function<void(LmtpReply)>>;
  auto held = std::make_shared<Held>(std::move(message), std::move(*mail), std::move(done));
  boost::asio::post(lobby_.workers(), [self = shared_from_this(), sender, id, held] {
    const bool seen = self->lobby_.mail_seen_stored(to_lower(sender), id).value_or(false);
    boost::asio::post(self->io_, [self, sender, id, held, seen] {
      auto& [message, mail, done] = *held;
      if (!seen) {
        return self->run_mail(std::move(message), std::move(mail), sender, id, std::move(done));
      }
      spdlog::info("mail from {}: <{}> was already run on another node; not again", sender, id);
      self->dedup_.release(sender, id);
      done({250, "2.0.0 already done"});
    });
  });
}

void MailIntake::run_mail(std::string message, InboundMail mail, const std::string& sender,
                          const std::string& id, std::function<void(LmtpReply)> done) {
  auto record = [&dedup = dedup_, sender, id, done = std::move(done)](LmtpReply reply) {
    if (reply.code / 100 != 2) {
      dedup.release(sender, id);
      return done(std::move(reply));
    }
    dedup.done_with(sender, id, TableServices::now_ms(),
                    [done, reply](std::string error) {
                      if (!error.empty()) spdlog::error("mail: {}", error);
                      done(reply);
                    });
  };
  std::make_shared<Run>(io_, lobby_, outbox_, std::move(message), std::move(mail),
                        std::move(record))
      ->start();
}

}  // namespace plateau::server
