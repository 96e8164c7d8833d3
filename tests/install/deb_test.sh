#!/usr/bin/env bash
# The Debian package (issue 19 item 2): `cpack -G DEB` (what `make deb` runs) builds
# plateau_VERSION_amd64.deb; its control fields, maintainer scripts and file list are checked,
# `lintian` reports no error on it (its warnings: docs/INSTALL.md).
# Exit 77 (skipped) without lintian (scripts/install-deps.sh installs it).
# Usage: deb_test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
command -v lintian >/dev/null 2>&1 || { echo "SKIP: lintian not found"; exit 77; }
tmp=$(mktemp -d)
. "$(dirname "$0")/lib.sh"
trap 'rm -rf "$tmp"' EXIT

version=$(sed -nE 's/^project\(plateau VERSION ([0-9.]+).*/\1/p' "$src/CMakeLists.txt")
if ! cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp" >"$tmp/cpack.log" 2>&1; then
  cat "$tmp/cpack.log"; echo "FAIL: cpack"; exit 1
fi
deb=$tmp/plateau_${version}_amd64.deb
check "package file" "plateau_${version}_amd64.deb" "$(cd "$tmp" && ls -- *.deb)"
field() { dpkg-deb -f "$deb" "$1"; }
check "Package" "plateau" "$(field Package)"
check "Version" "$version" "$(field Version)"
check "Section" "games" "$(field Section)"
check "Conflicts" "biloba" "$(field Conflicts)"
check "Replaces" "biloba" "$(field Replaces)"
check "Depends names libc6" "1" "$(field Depends | grep -c 'libc6 (>=')"
check "conffiles" "/etc/plateau/plateau.ini" "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles)"
check "control files" "$(printf './conffiles\n./control\n./md5sums\n./postinst\n./postrm\n./prerm')" \
  "$(dpkg-deb --ctrl-tarfile "$deb" | tar -t | grep -v '^./$' | LC_ALL=C sort)"
for script in postinst prerm postrm; do
  check "$script is packaging/debian/$script, mode 0755" "$(cat "$src/packaging/debian/$script")
-rwxr-xr-x" "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO "./$script")
$(dpkg-deb --ctrl-tarfile "$deb" | tar -tv "./$script" | cut -c1-10)"
done
check "package files" "./etc/plateau/plateau.ini
./usr/bin/plateau
./usr/games/biloba
./usr/games/biloba-server
./usr/lib/systemd/system/plateau.service
./usr/share/applications/biloba.desktop
./usr/share/doc/plateau/changelog.gz
./usr/share/doc/plateau/copyright
./usr/share/icons/hicolor/scalable/apps/biloba.svg
./usr/share/man/man6/biloba-server.6.gz
./usr/share/man/man6/biloba.6.gz
./usr/share/man/man6/plateau-mail-in.6.gz
./usr/share/man/man6/plateau-serve.6.gz
./usr/share/man/man6/plateau-store.6.gz
./usr/share/man/man6/plateau.6.gz
./usr/share/plateau/web/favicon.svg
./usr/share/plateau/web/index.html" \
  "$(dpkg-deb --fsys-tarfile "$deb" | tar -t | grep -v '/$' | grep -v '^./usr/share/plateau/web/assets/' | LC_ALL=C sort)"

lintian --tag-display-limit 0 "$deb" >"$tmp/lintian.txt" 2>&1
cat "$tmp/lintian.txt"
check "lintian errors" "" "$(grep '^E: ' "$tmp/lintian.txt")"

finish
