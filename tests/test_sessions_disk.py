"""`sessions disk`: the folder's bytes by cleanup's families, the budget, the largest sessions."""

from __future__ import annotations

import io
import json
import os
import random
import re
from pathlib import Path

import pytest
from helpers.cleanup import DAY_MS, THREAD_KEY, put, stamp, write_config, write_store
from helpers.cli import run, run_in_pty
from helpers.state import home_sessions_dir

from openclaw_cli.maintenance import disk_render
from openclaw_cli.maintenance.disk import FAMILIES, DiskUsage, Family, SessionUsage

pytestmark = pytest.mark.usefixtures("at_home")

PORT_ENV = {"OPENCLAW_GATEWAY_PORT": "1"}


def on_disk(folder: Path, *, skip: tuple[str, ...] = ("sessions.json.lock",)) -> dict[str, int]:
    """Every regular file below the folder (symlinks not followed) and its size, by relative path."""
    out: dict[str, int] = {}
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
        for name in files:
            path = Path(root, name)
            rel = str(path.relative_to(folder))
            if rel in skip or path.is_symlink() or not path.is_file():
                continue
            out[rel] = path.stat().st_size
    return out


def generated_store(home: Path, seed: int, agent: str = "main") -> Path:
    """A store with fresh, stale and protected entries and every kind of file beside it."""
    rng = random.Random(seed)
    now = __import__("time").time() * 1000
    entries: dict[str, dict] = {}
    folder = home_sessions_dir(home, agent)
    for i in range(rng.randint(8, 20)):
        sid = f"s{seed}-{i}"
        age = rng.choice([0, 2 * DAY_MS, 40 * DAY_MS, 90 * DAY_MS])
        key = f"{THREAD_KEY}{i}" if i % 5 == 0 else f"agent:{agent}:explicit:k{i}"
        entries[key] = {"sessionId": sid, "updatedAt": int(now - age), "label": f"L{i % 3}",
                        "totalTokens": rng.randint(0, 90_000)}
        put(folder / f"{sid}.jsonl", rng.randint(10, 3000), age_ms=age)
        if rng.random() < 0.4:
            put(folder / f"{sid}.trajectory.jsonl", rng.randint(1, 500), age_ms=age)
    for i in range(rng.randint(2, 6)):
        put(folder / f"orphan-{i}.jsonl", rng.randint(1, 900), age_ms=rng.choice([DAY_MS, 45 * DAY_MS]))
        put(folder / f"gone-{i}.jsonl.deleted.{stamp(rng.choice([DAY_MS, 50 * DAY_MS]))}", rng.randint(1, 700))
        put(folder / f"s{seed}-0.jsonl.reset.{stamp(rng.choice([DAY_MS, 50 * DAY_MS]))}", rng.randint(1, 400))
    put(folder / f"s{seed}-1.checkpoint.0f8fad5b-d9cb-469f-a165-70867728950e.jsonl", 321, age_ms=40 * DAY_MS)
    put(folder / f"sessions.json.{1234}.7c9e6679-7425-40de-944b-e07fc1f90ae7.tmp", 77, age_ms=DAY_MS)
    put(folder / f"s{seed}-2.jsonl.lock", 12)
    put(folder / "sessions.json.lock", 33)  # our own store lock: not counted
    put(folder / "notes.txt", 55)
    put(folder / "nested" / "deep" / "thing.bin", 66)
    put(folder / "skills-prompts" / "sha256" / "ab" / ("ab" + "0" * 62 + ".txt"), 444, age_ms=40 * DAY_MS)
    return write_store(home, entries, agent)


def disk_json(home: Path, *args: str) -> dict:
    result = run(["sessions", "disk", "--json", *args], home, PORT_ENV)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_total_bytes_equal_the_bytes_on_disk_and_the_families_add_up(home, seed):
    store = generated_store(home, seed)
    agent = disk_json(home)["agents"][0]
    files = on_disk(store.parent)
    assert agent["totalBytes"] == sum(files.values())
    assert sum(f["bytes"] for f in agent["families"].values()) == agent["totalBytes"]
    assert sum(f["files"] for f in agent["families"].values()) == len(files)
    assert list(agent["families"]) == list(FAMILIES)


def test_each_family_holds_exactly_the_files_cleanup_classifies_there(home):
    store = generated_store(home, 7)
    fam = disk_json(home)["agents"][0]["families"]
    files = on_disk(store.parent)
    assert fam["sessionsJson"] == {"files": 1, "bytes": files["sessions.json"]}
    archives = {n: s for n, s in files.items() if ".deleted." in n or ".reset." in n}
    assert fam["archives"] == {"files": len(archives), "bytes": sum(archives.values())}
    orphans = {n: s for n, s in files.items() if n.startswith("orphan-")}
    assert fam["unreferencedTranscripts"] == {"files": len(orphans), "bytes": sum(orphans.values())}
    assert fam["checkpoints"]["bytes"] == 321
    assert fam["promptBlobs"] == {"files": 1, "bytes": 444}
    assert fam["tempsAndLocks"] == {"files": 2, "bytes": 77 + 12}
    assert fam["other"] == {"files": 2, "bytes": 55 + 66}


@pytest.mark.parametrize("maintenance", [None, {"maxDiskBytes": 9000, "highWaterBytes": 6000}],
                         ids=["age-rules", "disk-budget"])
def test_would_free_bytes_is_what_an_applying_enforce_run_then_frees(home, maintenance):
    if maintenance:
        write_config(home, maintenance)
    store = generated_store(home, 11)
    agent = disk_json(home)["agents"][0]
    before = on_disk(store.parent, skip=("sessions.json.lock", "sessions.json"))
    result = run(["sessions", "cleanup", "--enforce"], home, PORT_ENV)
    assert result.returncode == 0, result.stderr
    after = on_disk(store.parent, skip=("sessions.json.lock", "sessions.json"))
    freed = sum(before.values()) - sum(after.values())
    assert freed > 0
    assert agent["wouldFreeBytes"] == freed
    assert disk_json(home)["agents"][0]["wouldFreeBytes"] == 0 or maintenance is not None


def test_the_budget_shows_the_limits_and_how_full_the_folder_is(home):
    write_config(home, {"maxDiskBytes": "2mb", "highWaterBytes": "1mb"})
    generated_store(home, 5)
    budget = disk_json(home)["agents"][0]["budget"]
    assert budget["maxDiskBytes"] == 2 * 1024 * 1024 and budget["highWaterBytes"] == 1024 * 1024
    assert budget["overBudget"] is False
    assert budget["usedPercent"] == round(budget["usedBytes"] * 100 / budget["maxDiskBytes"], 1)


def test_no_budget_is_null(home):
    generated_store(home, 5)
    assert disk_json(home)["agents"][0]["budget"] is None


def test_top_lists_the_largest_sessions_with_their_transcript_sidecars_and_archives(home):
    store = generated_store(home, 4)
    entries = json.loads(store.read_text())
    files = on_disk(store.parent)
    expected = {}
    for key, entry in entries.items():
        sid = entry["sessionId"]
        expected[key] = sum(size for name, size in files.items()
                            if name in (f"{sid}.jsonl", f"{sid}.trajectory.jsonl")
                            or name.startswith((f"{sid}.jsonl.deleted.", f"{sid}.jsonl.reset.")))
    top = disk_json(home, "--top", "3")["agents"][0]["top"]
    assert [row["bytes"] for row in top] == sorted(expected.values(), reverse=True)[:3]
    for row in top:
        assert row["bytes"] == expected[row["key"]]
        assert row["sessionId"] == entries[row["key"]]["sessionId"]
        assert row["totalTokens"] == entries[row["key"]]["totalTokens"]
    assert disk_json(home, "--top", "0")["agents"][0]["top"] == []
    assert len(disk_json(home)["agents"][0]["top"]) == 10


def test_all_agents_measures_every_configured_agent(home):
    write_config(home, agents={"list": [{"id": "main", "default": True}, {"id": "ops"}]})
    main, ops = generated_store(home, 1, "main"), generated_store(home, 2, "ops")
    agents = disk_json(home, "--all-agents")["agents"]
    assert [a["agentId"] for a in agents] == ["main", "ops"]
    assert [a["totalBytes"] for a in agents] == [sum(on_disk(main.parent).values()),
                                                 sum(on_disk(ops.parent).values())]
    only = disk_json(home, "--agent", "ops")["agents"]
    assert [a["storePath"] for a in only] == [str(ops)]


def test_store_measures_that_store_s_folder(home, tmp_path):
    store = generated_store(home, 9)
    moved = tmp_path / "elsewhere"
    store.parent.rename(moved)
    agent = disk_json(home, "--store", str(moved / "sessions.json"))["agents"][0]
    assert agent["storePath"] == str(moved / "sessions.json")
    assert agent["totalBytes"] == sum(on_disk(moved).values())


def test_piped_text_has_exact_bytes_and_every_family(home):
    store = generated_store(home, 6)
    result = run(["sessions", "disk"], home, PORT_ENV)
    assert result.returncode == 0, result.stderr
    total = sum(on_disk(store.parent).values())
    lines = result.stdout.splitlines()
    assert lines[0] == f"Session store: {store}"
    assert lines[1].startswith(f"Total: {total} bytes in ")
    assert "Disk budget: none (session.maintenance.maxDiskBytes is not set)" in lines
    for label in disk_render.FAMILY_LABELS.values():
        assert any(line.startswith(label + " ") for line in lines), label
    assert "\x1b[" not in result.stdout


def test_at_a_terminal_sizes_are_human_in_a_table():
    usage = DiskUsage("main", "/s/sessions.json", 3_500_000,
                      {name: Family(1, 3_500_000 if name == "archives" else 0) for name in FAMILIES}, 1_200_000,
                      None, [SessionUsage("agent:main:main", "abc", "L", None, 12_345, 2_000_000)])
    out = io.StringIO()
    disk_render.print_rich([usage], 0, out, color=False)
    text = out.getvalue()
    assert "Total: 3.5 MB in 9 files" in text
    assert "would free: 1.2 MB" in text
    assert "2 MB" in text and "12,345" in text and "#" * disk_render.BAR_WIDTH in text


@pytest.mark.parametrize(("args", "code", "message"), [
    (["--top", "x"], 2, "--top must be a whole number of sessions (got 'x')"),
    (["--top", "-1"], 2, "--top must be a whole number of sessions (got '-1')"),
    (["--agent", "a", "--all-agents"], 2, "--agent and --all-agents cannot be used together"),
    (["--agent", "nope"], 1, 'Unknown agent id "nope"'),
    (["--store", "/nonexistent/sessions.json"], 1, "no session store at /nonexistent/sessions.json"),
])
def test_bad_input_is_one_line_and_a_true_exit_code(home, args, code, message):
    result = run(["sessions", "disk", *args], home, PORT_ENV)
    assert result.returncode == code
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) <= 2 and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_a_store_that_does_not_parse_is_an_error_and_nothing_changes(home):
    folder = home_sessions_dir(home)
    put(folder / "sessions.json", "{not json")
    before = on_disk(folder)
    result = run(["sessions", "disk"], home, PORT_ENV)
    assert result.returncode == 1 and result.stdout == ""
    assert on_disk(folder) == before


def test_the_budget_is_measured_as_the_folder_stands_now(home):
    """Over budget now, although the run's earlier steps would bring it under: the line says so."""
    write_config(home, {"maxDiskBytes": "1kb"})
    store = generated_store(home, 5)
    agent = disk_json(home)["agents"][0]
    files = on_disk(store.parent)
    budget = agent["budget"]
    assert budget["overBudget"] is True and budget["maxDiskBytes"] == 1024
    counted = sum(size for name, size in files.items() if "/" not in name or name.startswith("skills-prompts/"))
    assert budget["usedBytes"] >= counted - files["sessions.json"]


def test_at_a_terminal_the_command_draws_tables_with_human_sizes(home):
    generated_store(home, 8)
    put(home_sessions_dir(home) / "big.jsonl.bak.2026-01-01T00-00-00.000Z", 1_500_000)
    text = run_in_pty(["sessions", "disk"], home, {"NO_COLOR": "1", "COLUMNS": "120"})
    assert re.search(r"^Total: [\d.]+ MB in \d+ files$", text, re.M), text
    assert f"Session store: {home_sessions_dir(home) / 'sessions.json'}\n" in text
    assert re.search(r"archives \(\.deleted/\.reset/\.bak\)\W+\d+\W+1\.5\d? MB", text), text
    assert "Largest sessions (top 10)" in text and " bytes in " not in text


def test_measuring_opens_no_transcript_beyond_what_the_applying_plan_reads(home, monkeypatch):
    """Everything but the plan behind "would free" works from one scan of the folder: no file is opened."""
    import builtins

    from openclaw_cli.maintenance import disk

    generated_store(home, 3)
    opened: list[str] = []
    real_open = builtins.open

    def spy(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    def would_free(req, view):
        monkeypatch.setattr(builtins, "open", real_open)
        return 0

    real_measure = disk.measure

    def measure(req):
        monkeypatch.setattr(builtins, "open", spy)
        return real_measure(req)

    monkeypatch.setattr(disk, "_would_free", would_free)
    monkeypatch.setattr(disk, "measure", measure)
    disk_json(home)
    folder = str(home_sessions_dir(home))
    assert [path for path in opened if path.startswith(folder)] == []
