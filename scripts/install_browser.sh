#!/usr/bin/env bash
# Installs the headless browser tests/test_explore_browser.py drives: Debian's chromium and chromium-driver (the
# selenium package comes with the dev dependencies).  Run as root on Debian/Ubuntu (CI does, before the tests):
#   bash scripts/install_browser.sh
# Elsewhere it says what to install and exits 0: the browser test then skips, saying so in one line.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    echo "install_browser: $(chromium --version 2>/dev/null | head -n 1) and chromedriver are installed"
    exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium chromium-driver
    echo "install_browser: $(chromium --version 2>/dev/null | head -n 1) and chromedriver installed"
else
    echo "install_browser: install Chromium and its chromedriver (Debian/Ubuntu as root: apt-get install chromium" \
         "chromium-driver); without them tests/test_explore_browser.py skips" >&2
fi
