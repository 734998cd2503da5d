#!/usr/bin/env python3
"""Regenerate completions/ and man/ from the CLI definition (with --check: only report what differs)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from openclaw_cli.cli.docsgen.generate import MAN_DIR, generated_files  # noqa: E402


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def differences(root: Path = ROOT) -> tuple[dict[str, str], list[str], list[str]]:
    """(generated files, files that differ or are missing, man pages no command has any more)."""
    files = generated_files()
    changed = [rel for rel, text in files.items() if _read(root / rel) != text]
    stale = sorted(f"{MAN_DIR}/{p.name}" for p in (root / MAN_DIR).glob("openclaw*.1")
                   if f"{MAN_DIR}/{p.name}" not in files)
    return files, changed, stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file is out of date")
    args = parser.parse_args(argv)
    files, changed, stale = differences()
    if args.check:
        for rel in [*changed, *stale]:
            print(f"out of date: {rel}")
        return 1 if changed or stale else 0
    for rel in changed:
        target = ROOT / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(files[rel])
        print(f"wrote {rel}")
    for rel in stale:
        (ROOT / rel).unlink()
        print(f"removed {rel}")
    if not changed and not stale:
        print(f"up to date: {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
