"""Text of `sessions disk`: plain lines (exact bytes) when piped, rich tables with sizes at a terminal."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from openclaw_cli.maintenance.disk import DiskUsage, Family, SessionUsage
from openclaw_cli.ui import cells

FAMILY_LABELS = {
    "liveTranscripts": "live transcripts",
    "unreferencedTranscripts": "unreferenced transcripts",
    "archives": "archives (.deleted/.reset/.bak)",
    "checkpoints": "checkpoints",
    "trajectories": "trajectory sidecars",
    "promptBlobs": "skills-prompt blobs",
    "tempsAndLocks": "temps and locks",
    "sessionsJson": "sessions.json",
    "other": "other",
}
SQLITE_FAMILY_LABELS = {
    "database": "database",
    "wal": "write-ahead log (-wal)",
    "shm": "shared memory (-shm)",
    "lockCompanions": "lock companions",
    "publishedArchives": "published archives (.zst)",
    "coldFiles": "cold transcripts (cold/)",
    "leftovers": "left in sessions/",
    "importArchive": "import archive (originals)",
    "otherAgentDatabases": "other agents' databases",  # a shared folder's; the row only when there are some
}
BAR_WIDTH = 20

Size = Callable[[int], str]


def exact(n: int) -> str:
    return f"{n} bytes"


def human(n: int) -> str:
    from humanfriendly import format_size

    return format_size(n)


def _budget_line(usage: DiskUsage, size: Size) -> str:
    b = usage.budget
    if b is None:
        return "Disk budget: none (session.maintenance.maxDiskBytes is not set)"
    pct = "" if b["usedPercent"] is None else f" ({b['usedPercent']}%)"
    over = ", over budget" if b["overBudget"] else ""
    return (f"Disk budget: {size(b['usedBytes'])} of {size(b['maxDiskBytes'])}{pct}, "
            f"high water {size(b['highWaterBytes'])}{over}")


def _head(usage: DiskUsage, size: Size, show_agent: bool) -> list[str]:
    files = sum(f.files for f in usage.families.values())
    out = [f"Agent: {usage.agent_id}"] if show_agent else []
    if usage.database is not None:
        return out + [f"Session database: {usage.store_path} (OpenClaw 2026.8+, schema {usage.database.schema_version})",
                      f"Total: {size(usage.total_bytes)} in {files} files",
                      _budget_line(usage, size),
                      "sessions cleanup --enforce: only the agent's Gateway changes this database"]
    out += [f"Session store: {usage.store_path}",
            f"Total: {size(usage.total_bytes)} in {files} files",
            _budget_line(usage, size),
            f"sessions cleanup --enforce would free: {size(usage.would_free_bytes or 0)}"]
    return out


def _labels(usage: DiskUsage) -> dict[str, str]:
    return FAMILY_LABELS if usage.database is None else SQLITE_FAMILY_LABELS


def _shown_families(usage: DiskUsage) -> list[tuple[str, Family]]:
    """The families' rows: every one, but other agents' databases only in a folder that holds some."""
    labels = _labels(usage)
    return [(labels[name], fam) for name, fam in usage.families.items()
            if name != "otherAgentDatabases" or fam.files]


def database_lines(usage: DiskUsage, size: Size) -> list[str]:
    """The database as SQLite accounts for it: pages, free pages, session tables, archives, leftovers."""
    db = usage.database
    if db is None:
        return []
    out = ["", f"Pages: {db.page_count} of {size(db.page_size)}, free: {db.free_pages} ({size(db.free_bytes)})",
           "", f"{'Session table':<40} {'Rows':>9} {'Size':>14}"]
    for t in db.tables:
        if t.bytes == 0 and not t.rows:
            continue
        rows = "-" if t.rows is None else str(t.rows)
        out.append(f"{t.name:<40} {rows:>9} {'-' if t.bytes is None else size(t.bytes):>14}")
    out += ["", f"Archives in the database: {db.archives['rows']} ({size(db.archives['bytes'])} compressed)",
            f"Cold transcripts: {db.cold['rows']} ({size(db.cold['bytes'])})"]
    if db.others:
        out += ["", f"Other agents' databases in this folder ({len(db.others)}, with their -wal and -shm):"]
        out += [f"{size(o.bytes):>14}  {'agent ' + o.agent_id if o.agent_id else 'no owner':<24} {o.path}"
                for o in db.others]
    if db.leftovers:
        out += ["", f"Left in sessions/ ({len(db.leftovers)} files):"]
        out += [f"{size(n):>14}  {family:<24} {path}" for path, family, n in db.leftovers]
    return out


def _age(row: SessionUsage, now_ms: int) -> str:
    return cells.age_cell(row.updated_at, now_ms)


def _bar(part: int, total: int) -> str:
    filled = round(BAR_WIDTH * part / total) if total > 0 else 0
    return "#" * filled + "." * (BAR_WIDTH - filled)


def plain_lines(usages: Sequence[DiskUsage], now_ms: int) -> list[str]:
    """Tab-free aligned text with exact byte counts (for pipes and scripts that read text)."""
    out: list[str] = []
    for i, usage in enumerate(usages):
        if i:
            out.append("")
        out += _head(usage, exact, len(usages) > 1)
        out += ["", f"{'Family':<32} {'Files':>7} {'Bytes':>14}  Share"]
        for label, fam in _shown_families(usage):
            out.append(f"{label:<32} {fam.files:>7} {fam.bytes:>14}  "
                       f"{_bar(fam.bytes, usage.total_bytes)}")
        out += database_lines(usage, exact)
        if usage.top:
            out += ["", f"Largest sessions (top {len(usage.top)}):",
                    f"{'Bytes':>14}  {'Age':<9} {'Tokens':>9}  Key (label)"]
            for row in usage.top:
                tokens = "-" if row.tokens is None else str(row.tokens)
                label = f" ({row.label})" if row.label else ""
                out.append(f"{row.bytes:>14}  {_age(row, now_ms):<9} {tokens:>9}  {row.key}{label}")
    return out


def print_rich(usages: Sequence[DiskUsage], now_ms: int, out: TextIO, *, color: bool) -> None:
    """Rich tables with human sizes and a bar per family (at a terminal)."""
    from rich.table import Table
    from rich.text import Text

    from openclaw_cli.ui.console import rich_console

    console = rich_console(out, color=color)
    for i, usage in enumerate(usages):
        if i:
            console.print()
        for line in _head(usage, human, len(usages) > 1):
            console.print(Text(line), soft_wrap=True)  # a long path stays on one line
        table = Table(title=None, show_edge=False, pad_edge=False)
        for col, justify in (("Family", "left"), ("Files", "right"), ("Size", "right"), ("Share", "left")):
            table.add_column(col, justify=justify)  # type: ignore[arg-type]
        for label, fam in _shown_families(usage):
            table.add_row(label, str(fam.files), human(fam.bytes),
                          Text(_bar(fam.bytes, usage.total_bytes), style="cyan"))
        console.print(table)
        for line in database_lines(usage, human):
            console.print(Text(line), soft_wrap=True)
        if usage.top:
            top = Table(title=f"Largest sessions (top {len(usage.top)})", show_edge=False, pad_edge=False)
            for col, justify in (("Size", "right"), ("Age", "left"), ("Tokens", "right"), ("Key", "left"),
                                 ("Label", "left")):
                top.add_column(col, justify=justify)  # type: ignore[arg-type]
            for row in usage.top:
                top.add_row(human(row.bytes), _age(row, now_ms), "-" if row.tokens is None else f"{row.tokens:,}",
                            Text(row.key), Text(row.label or ""))
            console.print(top)
