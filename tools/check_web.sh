#!/usr/bin/env bash
# The web client's own checks: ESLint, tsc on the JSDoc types, and the Node tests of its pure
# modules, with the tools pinned in package-lock.json. Run by ./test, or alone: bash tools/check_web.sh
# Installs Debian's nodejs and npm when missing, and runs `npm ci` only when node_modules/ was
# not installed from this very lock.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "installing Debian's nodejs and npm for the web client's lint, type check and tests" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm >/dev/null
fi
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 18 || (a === 18 && b >= 18) ? 0 : 1)'; then
  echo "node $(node --version) is too old for the web client's tools (ESLint needs 18.18 or newer)" >&2
  exit 1
fi

web_stamp="node_modules/.installed-lock"
web_lock="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -f "$web_stamp" ] || [ "$(cat "$web_stamp")" != "$web_lock" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$web_lock" >"$web_stamp"
fi
node_modules/.bin/eslint --max-warnings 0 .
node_modules/.bin/tsc -p tsconfig.json
node_modules/.bin/tsc -p tsconfig.strict.json
node --test --test-reporter=dot tests/web/*.test.js
