#!/usr/bin/env bash
# Build the static HTML site a reader opens into output/site/ (open output/site/index.html): the executed notebooks
# (notebook 00 as the landing page), every paper's tables, figures and discussion, the explorer's pictures.
# Offline: nothing is fetched, nothing runs at build time but the notebooks' replotting (see ppalib/site.py).
# Uses ./.venv as scripts/test.sh does (made with the [dev,site] extras; an older one gets [site] added);
# PPALIB_PYTHON=/path/to/python uses that interpreter instead (its environment needs the pins of pyproject.toml,
# [site] included).
# Extra arguments pass through: --rerun executes the notebooks again even when the executed copies are fresh.
set -euo pipefail
if [ -n "${PPALIB_PYTHON:-}" ]; then
  cd "$(dirname "$0")/.."
  export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"  # this checkout's ppalib, whatever that environment holds
  PATH="$(dirname "$PPALIB_PYTHON"):$PATH"
  python() { "$PPALIB_PYTHON" "$@"; }
else
  source "$(dirname "$0")/_env.sh"
  if ! python -c "import sphinx, myst_nb, sphinx_book_theme" 2>/dev/null; then
    echo "installing the [site] extra into .venv" >&2
    python -m pip install --quiet -e ".[dev,site]"
  fi
fi
python -m ppalib site "$@"
