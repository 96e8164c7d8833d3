#include "server/tls.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <boost/asio/ssl/error.hpp>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace plateau::server {

namespace ssl = boost::asio::ssl;

namespace {

// "cannot read FILE: No such file or directory" before OpenSSL's less direct wording.
void check_readable(const std::filesystem::path& file, const char* what) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw std::runtime_error(std::string("cannot read the TLS ") + what + " " + file.string() +
                             ": " + std::strerror(errno));
  }
}

std::string openssl_reason(const boost::system::system_error& e) {
  std::string reason = e.code().message();
  return reason.empty() ? "not a usable PEM file" : reason;
}

}  // namespace

std::shared_ptr<ssl::context> make_tls_context(const std::filesystem::path& cert,
                                               const std::filesystem::path& key) {
  check_readable(cert, "certificate");
  check_readable(key, "private key");
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                   ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                   ssl::context::single_dh_use);
  // OpenSSL's default asks for a passphrase on the terminal, which would hang a server started
  // by a service manager: an encrypted key fails to load instead.
  ctx->set_password_callback([](std::size_t, ssl::context::password_purpose) { return ""; });
  try {
    ctx->use_certificate_chain_file(cert.string());
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot load the TLS certificate " + cert.string() + ": " +
                             openssl_reason(e) + " (expected a PEM certificate chain)");
  }
  const std::string mismatch = "the TLS private key " + key.string() +
                               " does not belong to the certificate " + cert.string();
  try {
    ctx->use_private_key_file(key.string(), ssl::context::pem);
  } catch (const boost::system::system_error& e) {
    // OpenSSL 3 checks the key against the loaded certificate as it loads it.
    if (e.code().category() == boost::asio::error::get_ssl_category() &&
        ERR_GET_REASON(static_cast<unsigned long>(e.code().value())) ==
            X509_R_KEY_VALUES_MISMATCH) {
      throw std::runtime_error(mismatch);
    }
    throw std::runtime_error("cannot load the TLS private key " + key.string() + ": " +
                             openssl_reason(e) + " (expected an unencrypted PEM private key)");
  }
  if (SSL_CTX_check_private_key(ctx->native_handle()) != 1) {
    ERR_clear_error();
    throw std::runtime_error(mismatch);
  }
  return ctx;
}

}  // namespace plateau::server
