"""Text of `sessions disk`: plain lines (exact bytes) when piped, rich tables with sizes at a terminal."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from openclaw_cli.maintenance.disk import DiskUsage, SessionUsage
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
    out += [f"Session store: {usage.store_path}",
            f"Total: {size(usage.total_bytes)} in {files} files",
            _budget_line(usage, size),
            f"sessions cleanup --enforce would free: {size(usage.would_free_bytes)}"]
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
        for name, fam in usage.families.items():
            out.append(f"{FAMILY_LABELS[name]:<32} {fam.files:>7} {fam.bytes:>14}  "
                       f"{_bar(fam.bytes, usage.total_bytes)}")
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
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    # Without colour (NO_COLOR, --no-color) no escape code at all: rich's no_color keeps bold and
    # dim, a console without a colour system writes none.
    console = Console(file=out, highlight=False, soft_wrap=False, color_system="auto" if color else None)
    for i, usage in enumerate(usages):
        if i:
            console.print()
        for line in _head(usage, human, len(usages) > 1):
            console.print(Text(line), soft_wrap=True)  # a long path stays on one line
        table = Table(title=None, show_edge=False, pad_edge=False)
        for col, justify in (("Family", "left"), ("Files", "right"), ("Size", "right"), ("Share", "left")):
            table.add_column(col, justify=justify)  # type: ignore[arg-type]
        for name, fam in usage.families.items():
            table.add_row(FAMILY_LABELS[name], str(fam.files), human(fam.bytes),
                          Text(_bar(fam.bytes, usage.total_bytes), style="cyan"))
        console.print(table)
        if usage.top:
            top = Table(title=f"Largest sessions (top {len(usage.top)})", show_edge=False, pad_edge=False)
            for col, justify in (("Size", "right"), ("Age", "left"), ("Tokens", "right"), ("Key", "left"),
                                 ("Label", "left")):
                top.add_column(col, justify=justify)  # type: ignore[arg-type]
            for row in usage.top:
                top.add_row(human(row.bytes), _age(row, now_ms), "-" if row.tokens is None else f"{row.tokens:,}",
                            Text(row.key), Text(row.label or ""))
            console.print(top)
