#!/usr/bin/env bash
# Set up ./.venv (first run only) and run the whole test suite, one worker per CPU up to four (pytest-xdist: the
# suite's tests use their own temporary folders and free ports, and the kernels' cache is written atomically, so they
# run side by side; on this 2-core machine 1,134-1,260 s from an empty numba cache, 2026-12-07 and 08).  Four at most: each
# worker compiles and holds the kernels (about 0.8 GB), and the longest test alone takes minutes.  The 30 slowest tests
# are listed at the end, so that a CI log shows where its time went.
source "$(dirname "$0")/_env.sh"
python -m pytest -q -n auto --maxprocesses 4 --durations=30 "$@"
