"""Files read and modified by tool calls, listed and formatted as compaction summaries carry them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


def _js_sort_key(value: str) -> bytes:
    return value.encode("utf-16-be", "surrogatepass")


@dataclass
class FileOps:
    read: dict[str, None] = field(default_factory=dict)
    written: dict[str, None] = field(default_factory=dict)
    edited: dict[str, None] = field(default_factory=dict)
    touched: dict[str, int] = field(default_factory=dict)  # path -> order of its latest operation
    clock: int = 0

    def add(self, tool: str, path: str) -> None:
        target = {"read": self.read, "write": self.written, "edit": self.edited}.get(tool)
        if target is not None:
            target[path] = None
            self._touch(path)

    def _touch(self, path: Any) -> None:
        if isinstance(path, str):
            self.clock += 1
            self.touched[path] = self.clock

    def add_all(self, ops: Iterable[tuple[str, str]]) -> None:
        for tool, path in ops:
            self.add(tool, path)

    def add_previous(self, details: Mapping[str, Any] | None) -> None:
        """A previous compaction's `details` lists (read as read, modified as edited)."""
        if not isinstance(details, Mapping):
            return
        if isinstance(details.get("readFiles"), list):
            for item in details["readFiles"]:
                self.read[item] = None
                self._touch(item)
        if isinstance(details.get("modifiedFiles"), list):
            for item in details["modifiedFiles"]:
                self.edited[item] = None
                self._touch(item)

    def lists(self) -> tuple[list[str], list[str]]:
        """(readFiles, modifiedFiles): read minus modified, both sorted by UTF-16 units."""
        modified = {**self.edited, **self.written}
        read = sorted((f for f in self.read if f not in modified), key=_sort_key)
        return read, sorted(modified, key=_sort_key)

    def most_recent_first(self, paths: list[str]) -> list[str]:
        """`paths` ordered by their latest operation, newest first."""
        return sorted(paths, key=lambda p: -self.touched.get(p, 0) if isinstance(p, str) else 0)


def _sort_key(value: Any) -> Any:
    return (0, _js_sort_key(value)) if isinstance(value, str) else (1, str(value))


def format_file_operations(read_files: list[str], modified_files: list[str]) -> str:
    """The `<read-files>` / `<modified-files>` suffix of a summary."""
    sections = []
    if read_files:
        sections.append("<read-files>\n" + "\n".join(map(str, read_files)) + "\n</read-files>")
    if modified_files:
        sections.append("<modified-files>\n" + "\n".join(map(str, modified_files)) + "\n</modified-files>")
    return "\n\n" + "\n\n".join(sections) if sections else ""


def capped_list(items: list[str], max_items: int, max_chars: int) -> list[str]:
    """The first items that fit `max_items` and `max_chars`, then "(+N more)" for the rest."""
    out: list[str] = []
    used = 0
    for item in items:
        text = str(item)
        if len(out) >= max_items or (out and used + len(text) + 1 > max_chars):
            break
        out.append(text)
        used += len(text) + 1
    if len(out) < len(items):
        out.append(f"(+{len(items) - len(out)} more)")
    return out


def format_capped_file_operations(read_files: list[str], modified_files: list[str], *, max_items: int,
                                  max_chars: int) -> str:
    """`format_file_operations` with each list capped (most recent first, then "(+N more)")."""
    return format_file_operations(capped_list(read_files, max_items, max_chars),
                                  capped_list(modified_files, max_items, max_chars))
