#!/usr/bin/env bash
# Idempotent installer for the real-VS-Code e2e environment (TESTING.md §2):
# Debian chromium + libkrb5-dev + ripgrep, then code-server 4.100.3 from npm into a cache dir,
# with the native rebuilds code-server needs. Re-running is cheap: each step checks a marker.
# Usage: test/e2e/install.sh [CACHE_DIR]   (default test/e2e/.cache, gitignored)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-${SPANPROOF_E2E_CACHE:-$here/.cache}}
version=4.100.3
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
log() { echo "[e2e-install] $*" >&2; }

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  log "apt-get install ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

cs="$cache/code-server-$version"
marker="$cs/.spanproof-ready"
if [ -f "$marker" ]; then
  log "code-server $version ready in $cs"
  exit 0
fi
mkdir -p "$cs"
cd "$cs"
if [ ! -f node_modules/code-server/package.json ]; then
  log "npm install code-server@$version (≈ 3 min cold)"
  npm install --prefix "$cs" --ignore-scripts --no-audit --no-fund "code-server@$version" >/dev/null
fi
if [ ! -f .argon2-built ]; then
  log "npm rebuild argon2"
  (cd "$cs" && npm rebuild argon2 >/dev/null) && touch .argon2-built
fi
vs="$cs/node_modules/code-server/lib/vscode"
cd "$vs"
if [ ! -f .deps-installed ]; then
  log "installing VS Code server deps"
  npm install --omit=dev --ignore-scripts --no-audit --no-fund >/dev/null
  touch .deps-installed
fi
mkdir -p node_modules/@vscode/ripgrep/bin
cp -f "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
if [ ! -f .deps-rebuilt ]; then
  log "npm rebuild (native modules: node-pty, kerberos, …)"
  npm_config_yes=true npm rebuild >/dev/null
  touch .deps-rebuilt
fi
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
if [ ! -f extensions/.deps-installed ]; then
  log "installing built-in extension deps"
  (cd extensions && npm install --omit=dev --no-audit --no-fund >/dev/null && touch .deps-installed)
fi
touch "$marker"
log "code-server $version ready in $cs"
