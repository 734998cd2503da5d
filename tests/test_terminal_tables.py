"""At a terminal, `sessions` and the `cleanup --dry-run` plan fit the window; piped, they stay OpenClaw's text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.cleanup import DAY_MS, cli, now_ms, write_store
from helpers.cli import run_in_pty
from rich.cells import cell_len

from openclaw_cli.ui.width import text_width

pytestmark = pytest.mark.usefixtures("at_home")

UUID_KEY = "agent:main:subagent:21615022-409a-4a78-909f-f4976a8a43ef"
THREAD_KEY = "agent:main:slack:channel:c0123456789:thread:1710000000.000100"
EMOJI_KEY = "agent:main:explicit:lobster-会話-🦞"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
NO_GATEWAY = {"OPENCLAW_GATEWAY_PORT": "1"}


def entries(now: int) -> dict:
    """Fresh and stale sessions with long keys, an emoji/CJK key and a short one."""
    return {
        UUID_KEY: {"sessionId": "s1", "updatedAt": now - 60_000, "model": "gpt-5.5", "label": "sub",
                   "thinkingLevel": "high"},
        THREAD_KEY: {"sessionId": "s2", "updatedAt": now - 3_600_000, "label": "スレッド"},
        EMOJI_KEY: {"sessionId": "s3", "updatedAt": now - 40 * DAY_MS, "label": "🦞 lobster"},
        "agent:main:main": {"sessionId": "s4", "updatedAt": now - 45 * DAY_MS},
    }


def terminal(home: Path, args: list[str], columns: int, color: bool = False) -> list[str]:
    env = {**NO_GATEWAY, "COLUMNS": str(columns), **({} if color else {"NO_COLOR": "1"})}
    return run_in_pty(args, home, env).splitlines()


def widest(lines: list[str]) -> int:
    return max(cell_len(ANSI.sub("", line)) for line in lines)


def table_rows(lines: list[str], header: str) -> list[str]:
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start:]:
        if not line.strip() or line.startswith("Showing "):
            break
        rows.append(line)
    return rows


@pytest.mark.parametrize("columns", [60, 80, 120, 200])
@pytest.mark.parametrize("args", [["sessions"], ["sessions", "list", "--all-agents"], ["sessions", "cleanup", "--dry-run"],
                                  ["sessions", "cleanup", "--dry-run", "--explain"]])
def test_no_line_is_wider_than_the_window(home, args, columns):
    write_store(home, entries(now_ms()))
    lines = terminal(home, args, columns)
    assert len(lines) > 5
    assert widest(lines) <= columns, "\n".join(lines)


@pytest.mark.parametrize("columns", [60, 80])
def test_coloured_lines_are_no_wider_than_the_window_either(home, columns):
    write_store(home, entries(now_ms()))
    for args in (["sessions"], ["sessions", "cleanup", "--dry-run"]):
        lines = terminal(home, args, columns, color=True)
        assert any("\x1b[" in line for line in lines)
        assert widest(lines) <= columns


@pytest.mark.parametrize("args", [["sessions"], ["sessions", "cleanup", "--dry-run"]])
def test_at_200_columns_every_key_is_shown_whole(home, args):
    write_store(home, entries(now_ms()))
    text = "\n".join(terminal(home, args, 200))
    for key in (UUID_KEY, THREAD_KEY, EMOJI_KEY, "agent:main:main"):
        assert key in text


@pytest.mark.parametrize("args", [["sessions"], ["sessions", "cleanup", "--dry-run"]])
def test_at_80_columns_a_long_key_is_cut_in_the_middle_and_keeps_both_ends(home, args):
    write_store(home, entries(now_ms()))
    lines = terminal(home, args, 80)
    assert not any(UUID_KEY in line for line in lines)
    cut = [m for line in lines if (m := re.search(r"(agent:\S*)…(\S+)", line)) and "8a43ef" in line]
    assert cut, "\n".join(lines)
    head, tail = cut[0].groups()
    assert UUID_KEY.startswith(head) and UUID_KEY.endswith(tail) and len(tail) >= 6
    assert "agent:main:main" in "\n".join(lines)  # a short key stays whole


@pytest.mark.parametrize("args,header", [(["sessions"], "Kind"), (["sessions", "cleanup", "--dry-run"], "Action")])
@pytest.mark.parametrize("columns", [80, 200])
def test_an_emoji_or_cjk_key_keeps_the_columns_aligned(home, args, header, columns):
    write_store(home, entries(now_ms()))
    rows = table_rows(terminal(home, args, columns), header)
    assert len(rows) == 5
    age_at = [cell_len(line[:line.index(word)]) for line, word in
              zip(rows, ["Age"] + [re.search(r"(\d+[mhd] ago|just now)", r).group(1) for r in rows[1:]])]
    assert len(set(age_at)) == 1, "\n".join(rows)
    assert any("🦞" in row for row in rows)


@pytest.mark.parametrize("args,header", [(["sessions"], "Kind"), (["sessions", "cleanup", "--dry-run"], "Action")])
def test_a_joined_emoji_key_keeps_the_columns_aligned_as_the_terminal_draws_it(home, args, header):
    family = "agent:main:telegram:group:\U0001F468\u200d\U0001F469\u200d\U0001F467-family"
    write_store(home, {**entries(now_ms()), family: {"sessionId": "s6", "updatedAt": now_ms() - 50 * DAY_MS}})
    rows = table_rows(terminal(home, args, 200), header)
    age_at = [text_width(line[:line.index(word)]) for line, word in
              zip(rows, ["Age"] + [re.search(r"(\d+[mhd] ago|just now)", r).group(1) for r in rows[1:]])]
    assert len(set(age_at)) == 1, "\n".join(rows)
    assert any(family in row for row in rows)


def test_a_5000_character_label_never_makes_a_summary_line_wider_than_the_window(home):
    now = now_ms()
    write_store(home, {**entries(now), "agent:main:explicit:long": {"sessionId": "s5", "updatedAt": now - 50 * DAY_MS,
                                                                  "label": "L" * 4990 + " the end"}})
    lines = terminal(home, ["sessions", "cleanup", "--dry-run"], 80)
    summary = table_rows(lines, "Summary by Label:")
    assert widest(lines) <= 80
    long = [line for line in summary if line.startswith("LLLL")]
    assert long and long[0].endswith("0 kept, 1 pruned") and "…" in long[0]
    assert any(line.startswith("🦞 lobster ") for line in summary)


def big_store(home: Path, count: int) -> None:
    now = now_ms()
    write_store(home, {f"agent:main:explicit:job-{i:05d}": {
        "sessionId": f"s{i}", "updatedAt": now - (i % 3) * 20 * DAY_MS - i, "label": f"batch {i}"}
        for i in range(count)})


def test_a_20000_entry_dry_run_at_a_terminal_prints_a_screenful_with_counts_per_action(home):
    big_store(home, 20_000)
    lines = terminal(home, ["sessions", "cleanup", "--dry-run"], 100)
    assert len(lines) < 80, "\n".join(lines)
    assert widest(lines) <= 100
    assert "Planned session actions: 20,000" in lines
    counts = dict(re.findall(r"^  ([a-z-]+)\s+([\d,]+)$", "\n".join(lines), re.M))
    # A third 40 days old (stale), the rest over the default cap of 500 entries.
    assert counts == {"keep": "500", "cap-overflow": "12,834", "prune-stale": "6,666"}
    assert "The first 10 of each action:" in lines
    rows = table_rows(lines, "Action")[1:]
    assert [r.split()[0] for r in rows] == ["keep"] * 10 + ["cap-overflow"] * 10 + ["prune-stale"] * 10
    assert any(line.startswith("Showing 30 of 20,000 rows (--all") for line in lines)
    assert any(line.startswith("(the 10 labels with the most entries of 20,000") for line in lines)


def test_limit_shows_the_first_n_rows_of_each_action_and_all_shows_every_row(home):
    big_store(home, 60)
    limited = terminal(home, ["sessions", "cleanup", "--dry-run", "--limit", "3"], 100)
    assert [r.split()[0] for r in table_rows(limited, "Action")[1:]] == ["keep"] * 3 + ["prune-stale"] * 3
    assert "The first 3 of each action:" in limited
    every = terminal(home, ["sessions", "cleanup", "--dry-run", "--all"], 100)
    assert len(table_rows(every, "Action")) == 61
    assert not any(line.startswith("Showing ") for line in every)
    assert len(table_rows(every, "Summary by Label:")) == 62  # heading, 60 labels, total


def test_piped_output_is_the_same_with_all_or_limit(home):
    big_store(home, 60)
    plain = cli(home, "--dry-run")
    assert plain.returncode == 0
    assert len(plain.stdout.splitlines()) > 120  # every row and every label: OpenClaw's text
    for extra in (["--all"], ["--limit", "2"]):
        again = cli(home, "--dry-run", *extra)
        assert (again.returncode, again.stdout) == (0, plain.stdout)
    as_json = cli(home, "--dry-run", "--json")
    assert cli(home, "--dry-run", "--json", "--limit", "2").stdout == as_json.stdout


@pytest.mark.parametrize("extra,message", [(["--limit", "0"], "--limit must be a positive integer"),
                                           (["--limit", "ten"], "--limit must be a positive integer"),
                                           (["--all", "--limit", "5"], "--all and --limit cannot be used together")])
def test_a_bad_limit_is_bad_usage(home, extra, message):
    write_store(home, entries(now_ms()))
    result = cli(home, "--dry-run", *extra)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_a_middle_cut_keeps_both_ends_and_fits_the_width_in_terminal_columns():
    from openclaw_cli.ui.fit import middle_cut

    cut = middle_cut(UUID_KEY, 21)
    assert cut == "agent:main…976a8a43ef"
    assert middle_cut("agent:main:main", 15) == "agent:main:main"
    wide = middle_cut("会話会話会話会話-🦞🦞", 9)
    assert cell_len(wide) <= 9 and wide.startswith("会話") and wide.endswith("🦞")


def test_an_end_cut_never_splits_a_wide_character_past_the_width():
    from openclaw_cli.ui.fit import end_cut

    assert end_cut("スレッド", 8) == "スレッド"
    assert end_cut("スレッド", 7) == "スレッ…"
    assert end_cut("スレッド", 6) == "スレ…"
    assert end_cut("abc", 0) == ""
