# Sourced by scripts/test.sh and scripts/reproduce.sh: make ./.venv from pyproject.toml if it is missing or
# older than pyproject.toml, then activate it.  Needs only Python >= 3.11 with venv and pip.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON_BIN="${PYTHON:-}"
if [ -z "$PYTHON_BIN" ]; then
  for candidate in python3.11 python3 python; do
    if command -v "$candidate" >/dev/null 2>&1; then PYTHON_BIN="$candidate"; break; fi
  done
fi
"$PYTHON_BIN" -c 'import sys; assert sys.version_info >= (3, 11), "ppalib needs Python >= 3.11"'
stamp=".venv/.ppalib-installed"
want="$(sha256sum pyproject.toml | cut -c1-16)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setting up .venv (Python: $("$PYTHON_BIN" --version))" >&2
  "$PYTHON_BIN" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[dev,site]"  # site: the static site and its test
  .venv/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null
  echo "$want" > "$stamp"
fi
# shellcheck disable=SC1091
source .venv/bin/activate
