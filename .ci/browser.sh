#!/usr/bin/env bash
# Headless Chromium for the report test (tests/cli/report_browser.rs): installed once, from the
# distribution's packages (no browser download by any crate), before the build starts.
# Skipped when /usr/bin/chromium exists; needs root (CI runs as root) for apt-get.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
    exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "chromium: not installed and not root; the report browser test will fail under CI=true" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo installed)"
