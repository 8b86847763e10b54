# Creates .venv (once) and installs the pinned dependencies and the package into it.
# Sourced by ./run and ./test; $1 is the lock file to install.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
lock="$1"
stamp=".venv/.installed-$(basename "$lock")"

make_venv() {
  if python3 -m venv .venv 2>/dev/null; then return; fi
  rm -rf .venv
  echo "python3 -m venv is missing; installing Debian's python3-venv" >&2
  if command -v apt-get >/dev/null; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq python3-venv >/dev/null
  fi
  python3 -m venv .venv
}

if [ ! -x .venv/bin/python ]; then make_venv; fi
if [ ! -f "$stamp" ] || [ "$lock" -nt "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install -q --disable-pip-version-check -r "$lock"
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps -e .
  touch "$stamp"
fi
export PATH="$PWD/.venv/bin:$PATH"
# the package's bytecode, as an install from a wheel writes it (an editable install does not;
# where PYTHONDONTWRITEBYTECODE is set, every start would compile the sources again)
.venv/bin/python -m compileall -q src >/dev/null
# three.js for the 3D ship, from package-lock.json (skipped when already present)
.venv/bin/python tools/fetch_web_deps.py
