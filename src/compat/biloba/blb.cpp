#include "compat/biloba/blb.h"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/error.h"

namespace plateau::biloba::net {

namespace {

constexpr char kMagic[] = "Biloba-game-dump";
constexpr std::size_t kMagicLen = 16;
constexpr std::int32_t kMaxNameBytes = 512;

void put32(std::string& out, std::int32_t v) {
  const auto u = static_cast<std::uint32_t>(v);
  for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>(u >> shift));
}

class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}
  bool at_end() const { return pos_ == bytes_.size(); }
  std::size_t left() const { return bytes_.size() - pos_; }
  std::int32_t int32(const char* what) {
    if (left() < 4) throw RecordError(0, std::string("replay file ends inside ") + what);
    std::uint32_t u = 0;
    for (int i = 3; i >= 0; --i) u = (u << 8) | static_cast<std::uint8_t>(bytes_[pos_ + i]);
    pos_ += 4;
    return static_cast<std::int32_t>(u);
  }
  std::string take(std::size_t n, const char* what) {
    if (left() < n) throw RecordError(0, std::string("replay file ends inside ") + what);
    std::string s = bytes_.substr(pos_, n);
    pos_ += n;
    return s;
  }

 private:
  const std::string& bytes_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string encode_blb(const BlbGame& game) {
  if (game.names.size() < 2 || game.names.size() > 4) {
    throw std::invalid_argument("a replay file needs 2..4 players");
  }
  std::string out(kMagic, kMagicLen);
  put32(out, 1);
  put32(out, static_cast<std::int32_t>(game.names.size()));
  for (const std::string& name : game.names) {
    put32(out, static_cast<std::int32_t>(name.size()));
    out += name;
  }
  for (const BlbRecord& r : game.records) {
    put32(out, r.seat);
    put32(out, r.x);
    put32(out, r.y);
  }
  return out;
}

BlbGame decode_blb(const std::string& bytes) {
  Reader in(bytes);
  if (in.take(std::min<std::size_t>(kMagicLen, in.left()), "the header") !=
      std::string(kMagic, kMagicLen)) {
    throw RecordError(0, "not a Biloba replay file (no \"Biloba-game-dump\" header)");
  }
  const std::int32_t version = in.int32("the version");
  if (version != 1) {
    throw RecordError(0, "replay file version " + std::to_string(version) + " (only 1 is known)");
  }
  const std::int32_t players = in.int32("the number of players");
  if (players < 2 || players > 4) {
    throw RecordError(0, "replay file for " + std::to_string(players) + " players (2..4)");
  }
  BlbGame game;
  for (int seat = 0; seat < players; ++seat) {
    const std::int32_t len = in.int32("a name length");
    if (len < 0 || len >= kMaxNameBytes) {
      throw RecordError(0, "name of player " + std::to_string(seat + 1) + " has length " +
                               std::to_string(len) + " (0..511)");
    }
    game.names.push_back(in.take(static_cast<std::size_t>(len), "a player name"));
  }
  while (!in.at_end()) {
    if (in.left() < 12) throw RecordError(0, "replay file ends inside a click record");
    BlbRecord r{in.int32("a record"), in.int32("a record"), in.int32("a record")};
    const std::size_t index = game.records.size();
    if (r.seat < 0 || r.seat >= players) {
      throw RecordError(0, "record " + std::to_string(index + 1) + " has seat " +
                               std::to_string(r.seat));
    }
    const bool special = (r.x == -1 && r.y == -1) || (r.x == -2 && r.y == -2);
    if (!special && (r.x < 0 || r.x > 8 || r.y < 0 || r.y > 8)) {
      throw RecordError(0, "record " + std::to_string(index + 1) + " clicks (" +
                               std::to_string(r.x) + ", " + std::to_string(r.y) +
                               ") outside the board");
    }
    game.records.push_back(r);
  }
  return game;
}

BlbGame read_blb_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RecordError(0, "cannot open replay file " + path);
  std::ostringstream buf;
  buf << in.rdbuf();
  try {
    return decode_blb(buf.str());
  } catch (const RecordError& e) {
    throw RecordError(0, path + ": " + e.what());
  }
}

void write_blb_file(const std::string& path, const BlbGame& game) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const std::string bytes = encode_blb(game);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw RecordError(0, "cannot write replay file " + path);
}

std::string dump_file_name(int id, const std::string& game_name) {
  std::string name = game_name;
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  return std::to_string(id) + "-" + name + ".blb";
}

std::string save_last_game_path(long long when) {
  const char* home_env = std::getenv("HOME");
  const std::filesystem::path home = home_env ? home_env : ".";
  std::filesystem::path dir = home / "Desktop";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) dir = home;
  const std::time_t t = static_cast<std::time_t>(when);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "Biloba-%Y-%m-%d-%H%M.%S.blb", &tm);
  return (dir / buf).string();
}

}  // namespace plateau::biloba::net
