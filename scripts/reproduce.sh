#!/usr/bin/env bash
# Set up ./.venv (first run only) and rerun every notebook headlessly at the default preset (quick).
# Extra arguments pass through, e.g.: bash scripts/reproduce.sh --preset smoke --only 01_ppa_2015
source "$(dirname "$0")/_env.sh"
python -m ppalib reproduce "$@"
