#include "server/mail_service.h"

#include <spdlog/spdlog.h>

#include "core/text.h"
#include "server/lobby.h"
#include "server/mail_dedup.h"
#include "server/mail_message.h"
#include "server/mail_outbox.h"
#include "server/mail_session.h"

namespace plateau::server {

namespace {

class MailService : public ExtraListener {
 public:
  MailService(const ServerContext& ctx, const MailOptions& options)
      : lobby_(ctx.lobby),
        outbox_(ctx.lobby.accounts(), ctx.lobby.store(), {options.smtp_url, options.mail_from}),
        dedup_(ctx.lobby.store()) {
    lobby_.set_mailer(&outbox_);
    lobby_.set_address_check([from = options.mail_from](const std::string& address) {
      return signup_address_problem(address, from);
    });
    if (!ctx.options.node_id.empty()) {
      // Several nodes: one outbox for all, each mail sent by one live node (mail_outbox.h).
      outbox_.share({ctx.options.store_url, ctx.options.node_id});
    }
    if (!options.smtp_url.empty()) {
      outbox_.start(lobby_.take_unsent_mail());
    } else {
      spdlog::warn("mail: no --smtp: no mail is sent (none is kept either)");
    }
    if (options.lmtp_port != 0) {
      dedup_.restore(lobby_.take_seen_mail(), Lobby::now_ms());
      intake_ = std::make_shared<MailIntake>(ctx.io, ctx.lobby, outbox_, dedup_);
      try {
        listener_ = std::make_shared<LmtpListener>(
            ctx.io,
            boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address(options.lmtp_bind),
                                           options.lmtp_port),
            ctx.connections, options.lmtp, outbox_.settings().domain(),
            [intake = intake_](std::string message, std::string from,
                               std::function<void(LmtpReply)> done) {
              intake->deliver(std::move(message), std::move(from), std::move(done));
            });
      } catch (const boost::system::system_error& e) {
        lobby_.set_mailer(nullptr);
        throw std::runtime_error(std::string("cannot listen for LMTP: ") + e.what());
      }
      listener_->start();
    }
  }
  ~MailService() override {
    lobby_.set_mailer(nullptr);
    outbox_.stop();
  }
  void stop() override {
    if (listener_) listener_->stop();
    outbox_.stop();
  }

 private:
  Lobby& lobby_;
  MailOutbox outbox_;
  MailDedup dedup_;
  std::shared_ptr<MailIntake> intake_;
  std::shared_ptr<LmtpListener> listener_;
};

}  // namespace

ExtraListenerFactory mail_port(MailOptions options) {
  if (!valid_mail_address(options.mail_from)) {
    throw std::runtime_error("--mail-from needs a plain address (name@domain), not '" +
                             options.mail_from.substr(0, 80) + "'");
  }
  if (!options.smtp_url.empty() && !starts_with(to_lower(options.smtp_url), "smtp://") &&
      !starts_with(to_lower(options.smtp_url), "smtps://")) {
    throw std::runtime_error("--smtp takes smtp://HOST[:PORT] or smtps://HOST[:PORT]");
  }
  return [options](const ServerContext& ctx) -> std::unique_ptr<ExtraListener> {
    return std::make_unique<MailService>(ctx, options);
  };
}

}  // namespace plateau::server
