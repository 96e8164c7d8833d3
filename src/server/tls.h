#pragma once
// TLS for the HTTP port (`plateau serve --tls-cert FILE --tls-key FILE`): HTTPS and WSS through
// Boost.Beast's ssl_stream over OpenSSL (issue 12, item 11).
#include <boost/asio/ssl/context.hpp>
#include <filesystem>
#include <memory>

namespace plateau::server {

// A server context with the certificate chain `cert` (PEM: the certificate first, then any
// intermediates) and the private key `key` (PEM, unencrypted), TLS 1.2 or later only. Throws
// std::runtime_error with one line naming the file and what is wrong with it (unreadable, not
// PEM, an encrypted key, a key that does not belong to the certificate).
std::shared_ptr<boost::asio::ssl::context> make_tls_context(const std::filesystem::path& cert,
                                                            const std::filesystem::path& key);

}  // namespace plateau::server
