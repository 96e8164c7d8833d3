#include "server/password.h"

#include <sodium.h>

#include <stdexcept>

#include "server/limits.h"

namespace plateau::server {

namespace {

void init_sodium() {
  static const int ok = sodium_init();
  if (ok < 0) throw std::runtime_error("libsodium failed to initialise");
}

}  // namespace

std::string hash_password(std::string_view password) {
  init_sodium();
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(),
                            crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    throw std::runtime_error("out of memory while hashing a password");
  }
  return out;
}

std::string password_policy_error(std::string_view password) {
  std::size_t chars = 0;
  for (char c : password) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++chars;  // not a continuation byte
  }
  if (chars < kMinPasswordLength || chars > kMaxPasswordLength) {
    return "a password has " + std::to_string(kMinPasswordLength) + " to " +
           std::to_string(kMaxPasswordLength) + " characters";
  }
  return "";
}

bool verify_password(std::string_view password, const std::string& encoded) {
  init_sodium();
  return crypto_pwhash_str_verify(encoded.c_str(), password.data(), password.size()) == 0;
}

}  // namespace plateau::server
