#!/usr/bin/env bash
# Installs the Debian 12 packages Plateau needs to build, test and run.
# Idempotent: installs only what is missing and runs `apt-get update` at most once.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev libfmt-dev libspdlog-dev nlohmann-json3-dev zlib1g-dev
  libboost-dev libboost-system-dev
  libsqlite3-dev libsqlitecpp-dev libsodium-dev
  libpq-dev postgresql-15  # the PostgreSQL store: libpq (client), the server for its tests
  libssl-dev openssl
  libgmime-3.0-dev libcurl4-openssl-dev  # play by e-mail: MIME parsing (GMime 3), SMTP out (libcurl)
  python3-aiosmtpd  # the mail integration tests' SMTP sink (run with /usr/bin/python3)
  python3
  lintian man-db curl file  # the install tests (tests/install): make deb's checker, man -l, GET /
  clang libclang-rt-14-dev  # the libFuzzer targets of tests/fuzz (clang's fuzzer runtime)
  biloba
  chromium
  libsdl2-dev libsdl2-ttf-dev fonts-dejavu-core  # the biloba window (src/gui; DejaVu Sans at run time)
  xvfb xdotool imagemagick  # its tests under Xvfb (tests/gui): X server, clicks, screenshots
)
# The browser client is built with Node.js and npm (web/); the machine image usually has a newer
# Node.js than Debian's (Vite 7 needs 20.19 or later): Debian's packages only when there is none.
if ! command -v node >/dev/null 2>&1; then packages+=(nodejs); fi
if ! command -v npm >/dev/null 2>&1; then packages+=(npm); fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
