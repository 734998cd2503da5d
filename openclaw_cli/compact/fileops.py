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

    def add(self, tool: str, path: str) -> None:
        target = {"read": self.read, "write": self.written, "edit": self.edited}.get(tool)
        if target is not None:
            target[path] = None

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
        if isinstance(details.get("modifiedFiles"), list):
            for item in details["modifiedFiles"]:
                self.edited[item] = None

    def lists(self) -> tuple[list[str], list[str]]:
        """(readFiles, modifiedFiles): read minus modified, both sorted by UTF-16 units."""
        modified = {**self.edited, **self.written}
        read = sorted((f for f in self.read if f not in modified), key=_sort_key)
        return read, sorted(modified, key=_sort_key)


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
