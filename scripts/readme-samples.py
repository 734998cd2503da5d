#!/usr/bin/env python3
"""Re-run README.md's marked console samples on their fixture states: report drift, or `--write` them."""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers import readme_samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the samples in README.md")
    options = parser.parse_args()
    readme = readme_samples.README.read_text()
    updated = readme_samples.rewrite(readme)
    if options.write:
        if updated != readme:
            readme_samples.README.write_text(updated)
            print("README.md: samples rewritten")
        return 0
    diff = list(difflib.unified_diff(readme.splitlines(), updated.splitlines(), "README.md", "tool output", lineterm=""))
    sys.stdout.write("".join(f"{line}\n" for line in diff))
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
