#!/usr/bin/env bash
# Set up ./.venv (first run only) and run the whole test suite.
source "$(dirname "$0")/_env.sh"
python -m pytest -q "$@"
