#!/usr/bin/env bash
# Clone this repository into a temporary folder and run exactly README's two set-up commands
# there, each in a fresh shell: what a newcomer does on a new machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone --quiet "$root" "$work/openclaw_cli"
cd "$work/openclaw_cli"
# The commands are the first line of the sh block that follows each marker in README.md.
command_after() {
  awk -v marker="$1" '
    index($0, marker) { found = 1; next }
    found && /^```sh/ { inblock = 1; next }
    inblock { print; exit }
  ' README.md
}
main_cmd="$(command_after '<!-- setup:main -->')"
test_cmd="$(command_after '<!-- setup:test -->')"
[ -n "$main_cmd" ] && [ -n "$test_cmd" ] || { echo "README set-up commands not found" >&2; exit 1; }
echo "== $main_cmd"
env -u VIRTUAL_ENV bash -c "$main_cmd"
echo "== $test_cmd"
env -u VIRTUAL_ENV bash -c "$test_cmd"
