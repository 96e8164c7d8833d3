#pragma once
// Password hashing with libsodium's Argon2id (crypto_pwhash_str, interactive limits). Slow by
// design (tens of milliseconds): call off the I/O threads.
#include <string>
#include <string_view>

namespace plateau::server {

// The encoded hash (algorithm, parameters, salt and hash in one string). Throws
// std::runtime_error if libsodium cannot allocate the memory the hash needs.
std::string hash_password(std::string_view password);

// The rule every new password must meet (register, and any password change): 8 to 128
// characters (Unicode code points; NIST SP 800-63B §5.1.1.2, limits.h kMinPasswordLength and
// kMaxPasswordLength). Returns "" if `password` meets it, else the message to show.
std::string password_policy_error(std::string_view password);

// True if `password` matches `encoded` (a hash_password result); false for a malformed hash.
bool verify_password(std::string_view password, const std::string& encoded);

}  // namespace plateau::server
