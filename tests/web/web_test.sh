#!/usr/bin/env bash
# The browser client's tests, run by ctest (tests/CMakeLists.txt):
#   web_test.sh build   WEB_DIR                      npm ci if web/node_modules is missing, then
#                                                    npm run build when web/dist is older than
#                                                    its sources (the fixture of the two below)
#   web_test.sh unit    WEB_DIR                      the vitest unit tests (npm test)
#   web_test.sh browser WEB_DIR PLATEAU ARTIFACTS    the browser tests (web/tests/e2e/run.mjs)
#   web_test.sh diagrams WEB_DIR PLATEAU             the rules pages' positions replayed with
#                                                    PLATEAU (web/tests/rules/check-diagrams.mjs)
# Exit status 77 (ctest: skipped) only when Node.js (>= 20.19, what Vite 7 needs) or, for the
# browser tests, Chromium is missing; anything else that goes wrong fails.
set -euo pipefail
mode=$1
web=$2

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "SKIP: node/npm not found (Debian: apt-get install nodejs npm; scripts/install-deps.sh)"
  exit 77
fi
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)'; then
  echo "SKIP: node $(node --version) is older than Vite 7 needs (20.19)"
  exit 77
fi
cd "$web"

case "$mode" in
  build)
    if [ ! -d node_modules ]; then
      npm ci --no-audit --no-fund
    fi
    # Rebuild when any source is newer than the built page (or there is none).
    if [ ! -f dist/index.html ] || [ -n "$(find src public index.html package.json vite.config.ts tsconfig.json \
         -newer dist/index.html -print -quit)" ]; then
      npm run build
    else
      echo "web/dist is up to date"
    fi
    ;;
  unit)
    npm test
    ;;
  browser)
    plateau=$3
    artifacts=$4
    chromium=${PLATEAU_CHROMIUM:-/usr/bin/chromium}
    if [ ! -x "$chromium" ]; then
      echo "SKIP: no Chromium at $chromium (Debian: apt-get install chromium)"
      exit 77
    fi
    exec node tests/e2e/run.mjs --plateau "$plateau" --web-dir "$web/dist" \
      --artifacts "$artifacts" --chromium "$chromium"
    ;;
  diagrams)
    exec node tests/rules/check-diagrams.mjs --plateau "$3"
    ;;
  *)
    echo "usage: web_test.sh build|unit|browser|diagrams WEB_DIR [PLATEAU [ARTIFACTS]]" >&2
    exit 2
    ;;
esac
