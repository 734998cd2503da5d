"""Split a command's help text into prose, examples and exit codes."""

from __future__ import annotations

import re
from dataclasses import dataclass

_EXIT_ITEM = re.compile(r"(\d+)\s+(.+)", re.DOTALL)


@dataclass(frozen=True)
class Example:
    command: str
    description: str


@dataclass(frozen=True)
class HelpText:
    paragraphs: tuple[str, ...] = ()  # prose, each on one line
    examples: tuple[Example, ...] = ()
    exit_codes: tuple[tuple[int, str], ...] = ()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _paragraphs(lines: list[str]) -> list[str]:
    out: list[str] = []
    current: list[str] = []
    for line in [*lines, ""]:
        if line.strip():
            current.append(line.strip())
        elif current:
            out.append(" ".join(current))
            current = []
    return out


def parse_exit_codes(text: str) -> tuple[tuple[int, str], ...]:
    """`0 success, 1 error, 75 lock busy.` -> ((0, "success"), (1, "error"), (75, "lock busy"))."""
    items = re.split(r",\s*(?=\d+\s)", " ".join(text.split()).rstrip("."))
    parsed = [_EXIT_ITEM.fullmatch(item.strip()) for item in items]
    if not all(parsed):
        return ()
    return tuple((int(m.group(1)), m.group(2).strip()) for m in parsed if m)


def _exit_table(lines: list[str], i: int, rows: list[list[str]]) -> int:
    """Read the indented `CODE  meaning` lines after an `Exit codes:` heading; the next index."""
    while i < len(lines) and lines[i].strip() and _indent(lines[i]) > 0:
        match = re.fullmatch(r"(\d+)\s+(.+)", lines[i].strip())
        if match:
            rows.append([match.group(1), match.group(2)])
        elif rows:
            rows[-1].append(lines[i].strip())
        i += 1
    return i


def parse(text: str) -> HelpText:
    """Prose paragraphs, an `Examples:` block (a command per line, its description beside it
    after two spaces or on deeper-indented lines below) and an `Exit codes:` paragraph."""
    prose: list[str] = []
    examples: list[list[str]] = []  # [command, description lines...]
    lines = text.split("\n")
    i = 0
    exit_table: list[list[str]] = []  # [code, meaning lines...] of an `Exit codes:` table
    while i < len(lines):
        line = lines[i]
        if line.strip() == "Exit codes:" and not exit_table:
            i = _exit_table(lines, i + 1, exit_table)
            continue
        if line.strip() != "Examples:":
            prose.append(line)
            i += 1
            continue
        i += 1
        base: int | None = None
        while i < len(lines):
            line = lines[i]
            if not line.strip():
                i += 1
                continue
            indent = _indent(line)
            if base is None:
                base = indent
            if indent < base or base == 0:
                break
            if indent == base:
                examples.append(re.split(r"\s{2,}", line.strip(), maxsplit=1))
            elif examples:
                examples[-1].append(line.strip())
            i += 1
    paragraphs: list[str] = []
    exit_codes = tuple((int(row[0]), " ".join(row[1:])) for row in exit_table)
    for paragraph in _paragraphs(prose):
        if paragraph.startswith("Exit codes:") and not exit_codes:
            exit_codes = parse_exit_codes(paragraph[len("Exit codes:"):])
            if exit_codes:
                continue
        paragraphs.append(paragraph)
    return HelpText(tuple(paragraphs),
                    tuple(Example(ex[0], " ".join(p for p in ex[1:] if p)) for ex in examples),
                    exit_codes)
