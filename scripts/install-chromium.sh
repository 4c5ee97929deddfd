#!/usr/bin/env bash
# Installs Chromium from Debian's packages for the browser test (`npm run test:browser`) when it is missing;
# `npm run browser:install` and .ci/run call it. Nothing is downloaded by npm: playwright-core drives this binary.
# CHROMIUM_PATH names another Chromium (then nothing is installed). apt-get needs root (or sudo).
set -euo pipefail

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  echo "Chromium: $chromium ($("$chromium" --version 2>/dev/null | head -n 1))"
  exit 0
fi
if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file." >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "No Chromium at /usr/bin/chromium and no apt-get: install Chromium and set CHROMIUM_PATH." >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
echo "Installing Chromium from Debian's packages (apt-get)..."
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# fonts-dejavu-core: the fonts the page (and its screenshot) is rendered with.
$sudo apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
echo "Chromium: $(/usr/bin/chromium --version 2>/dev/null | head -n 1)"
