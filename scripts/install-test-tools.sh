#!/usr/bin/env bash
# Install the programs the completion and man page tests run (zsh, fish, groff), and libfaketime
# (the README samples of a state whose clock is fixed), from Debian packages when they are absent. Idempotent and silent when everything is there.
set -euo pipefail
packages=()
command -v zsh >/dev/null 2>&1 || packages+=(zsh)
command -v fish >/dev/null 2>&1 || packages+=(fish)
command -v groff >/dev/null 2>&1 || command -v man >/dev/null 2>&1 || packages+=(groff-base)
compgen -G '/usr/lib/*/faketime/libfaketime.so.1' >/dev/null || packages+=(libfaketime)
[ "${#packages[@]}" -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "test tools: ${packages[*]} missing and no apt-get here: install them, or their tests fail" >&2
  exit 0
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "test tools: ${packages[*]} missing and not root (no sudo): install them, or their tests fail" >&2
    exit 0
  fi
  as_root=(sudo)
fi
apt() { ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get "$@"; }
echo "test tools: installing ${packages[*]}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! apt install -y -q --no-install-recommends "${packages[@]}" >"$log" 2>&1; then
  # the package lists may be missing or stale: refresh them once and try again
  if ! { apt update -q && apt install -y -q --no-install-recommends "${packages[@]}"; } >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    echo "test tools: could not install ${packages[*]}; their tests fail until they are installed" >&2
  fi
fi
