"""A large folder's scan, made by a helper process while the store is read, is the scan this process makes."""

import os
import re

import pytest
from helpers.cleanup import DAY_MS, U1, U2, U3, cli, now_ms, put, write_store
from helpers.folders import folder_digest

from openclaw_cli.maintenance import folder_scan
from openclaw_cli.maintenance.fsview import FsView
from openclaw_cli.store.artifacts import format_archive_timestamp


@pytest.fixture
def big_store_folder(tmp_path, monkeypatch):
    """A sessions folder of awkward entries whose store counts as large (the threshold lowered to its size)."""
    folder = tmp_path / "sessions"
    folder.mkdir()
    store = folder / "sessions.json"
    store.write_text("{}\n")
    monkeypatch.setattr(folder_scan, "HELPER_MIN_STORE_BYTES", 1)
    for name in ("a.jsonl", "b c.jsonl", "new\nline.jsonl", "é.jsonl", "z.jsonl.deleted.2026-01-01T00-00-00.000Z"):
        (folder / name).write_bytes(b"x" * len(name))
    os.close(os.open(os.fsencode(folder) + b"/\xff\xfe.jsonl", os.O_CREAT | os.O_WRONLY))  # not UTF-8
    (folder / "sub").mkdir()
    (folder / "link.jsonl").symlink_to(folder / "a.jsonl")
    (folder / "dangling.jsonl").symlink_to(folder / "gone.jsonl")
    yield str(folder), str(store)
    folder_scan.discard()


def _view_state(view: FsView) -> tuple:
    files = {k: (f.path, f.canonical, f.size, f.mtime_ns) for k, f in view._files.items()}
    return files, dict(view._others), set(view._symlinks), [f.name for f in view.list_files()]


def test_the_helpers_scan_is_the_scan_made_here(big_store_folder):
    folder, store = big_store_folder
    here = FsView.open(folder)
    folder_scan.start(folder, store)
    assert folder in folder_scan._pending
    helped = FsView.open(folder)
    assert folder not in folder_scan._pending  # taken once
    assert _view_state(helped) == _view_state(here)
    assert "\udcff\udcfe.jsonl" in [f.name for f in helped.list_files()]
    assert helped._others["sub"][0] == "dir" and helped._symlinks == {"link.jsonl", "dangling.jsonl"}


def test_names_the_run_ignores_stay_invisible_in_the_helpers_scan(big_store_folder):
    folder, store = big_store_folder
    folder_scan.start(folder, store)
    view = FsView.open(folder, ignore=frozenset({"a.jsonl", "sub"}))
    names = [f.name for f in view.list_files()]
    assert "a.jsonl" not in names and "b c.jsonl" in names and "sub" not in view._others


def test_a_small_store_keeps_the_scan_in_this_process(big_store_folder, monkeypatch):
    folder, store = big_store_folder
    monkeypatch.setattr(folder_scan, "HELPER_MIN_STORE_BYTES", os.path.getsize(store) + 1)
    folder_scan.start(folder, store)
    assert folder_scan._pending == {}


def test_a_helper_that_fails_leaves_the_scan_to_this_process(big_store_folder, monkeypatch):
    folder, store = big_store_folder
    here = _view_state(FsView.open(folder))
    monkeypatch.setattr(folder_scan, "__file__", os.path.join(os.path.dirname(store), "no-such-script.py"))
    monkeypatch.setattr(folder_scan.os.path, "isfile", lambda _p: True)
    folder_scan.start(folder, store)
    assert folder in folder_scan._pending  # the interpreter starts, finds no script and exits 2
    assert folder_scan.take(folder) is None
    folder_scan.start(folder, store)
    assert _view_state(FsView.open(folder)) == here


@pytest.mark.parametrize("answer", [b"", b"+", b"garbage", b"+" + (3).to_bytes(8, "little") + (0).to_bytes(8, "little")])
def test_an_answer_that_is_not_whole_is_refused(answer):
    with pytest.raises(ValueError):
        list(folder_scan._decode(answer))


def test_the_answer_round_trips_every_field():
    found = [(b"a\nb", 0o100644, 3, -5), (b"\xff", 0o040755, 0, 1_700_000_000_123_456_789)]
    decoded = list(folder_scan._decode(folder_scan._encode(found)))
    assert decoded == [("a\nb", 0o100644, 3, -5), ("\udcff", 0o040755, 0, 1_700_000_000_123_456_789)]
    assert list(folder_scan._decode(folder_scan._encode([]))) == []


def test_a_folder_the_helper_cannot_list_is_seen_empty(tmp_path, monkeypatch):
    store = tmp_path / "sessions.json"
    store.write_text("{}\n")
    monkeypatch.setattr(folder_scan, "HELPER_MIN_STORE_BYTES", 1)
    missing = str(tmp_path / "gone")
    folder_scan.start(missing, str(store))
    assert folder_scan.take(missing) == ()  # answered: nothing there, not a failed helper
    view = FsView.open(missing)
    assert view.scanned and view.list_files() == []


def test_scans_not_taken_are_stopped(big_store_folder):
    folder, store = big_store_folder
    folder_scan.start(folder, store)
    proc = folder_scan._pending[folder]
    folder_scan.discard()
    assert folder_scan._pending == {} and proc.returncode is not None


def _home_with_history(home, now: int):
    """A store with live, stale and orphaned sessions, an old archive and a young temp file."""
    folder = home / ".openclaw" / "agents" / "main" / "sessions"
    store = write_store(home, {
        "agent:main:live": {"sessionId": U1, "updatedAt": now},
        "agent:main:stale": {"sessionId": U2, "updatedAt": now - 40 * DAY_MS},
    })
    put(folder / f"{U1}.jsonl")
    put(folder / f"{U2}.jsonl", age_ms=40 * DAY_MS)
    put(folder / f"{U3}.jsonl", age_ms=45 * DAY_MS)  # no entry
    put(folder / f"{U3}.jsonl.deleted.{format_archive_timestamp(now - 50 * DAY_MS)}", age_ms=50 * DAY_MS)
    put(folder / "sessions.json.123.tmp", "{}")
    return store


@pytest.mark.parametrize("mode", ["--dry-run", "--enforce"])
def test_a_cleanup_with_the_helpers_scan_decides_and_writes_what_it_would_without(tmp_path, monkeypatch, mode):
    taken: list[bool] = []
    real_take = folder_scan.take
    monkeypatch.setattr(folder_scan, "take", lambda folder: taken.append(True) or real_take(folder))
    outputs, states, now = [], [], now_ms()
    for threshold in (1, 1 << 40):
        home = tmp_path / str(threshold)
        store = _home_with_history(home, now)
        monkeypatch.setattr(folder_scan, "HELPER_MIN_STORE_BYTES", threshold)
        monkeypatch.setattr(folder_scan, "_pending", {})
        result = cli(home, mode, "--json", "--store", str(store))
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout.replace(str(home), "HOME"))
        # an archive the run makes is stamped with the moment it ran
        states.append({re.sub(r"\.deleted\..*Z$", ".deleted.STAMP", name): facts
                       for name, facts in folder_digest(store.parent).items()})
    assert taken  # the first run took the helper's scan
    assert outputs[0] == outputs[1]
    assert states[0] == states[1]
    assert '"pruned": 1' in outputs[0] and '"removedFiles": 0' not in outputs[0]


def test_names_decoded_a_block_at_a_time_are_the_names_written(monkeypatch):
    monkeypatch.setattr(folder_scan, "_NAME_BLOCK_BYTES", 5)
    found = [(f"{i}-é".encode() * (i % 4 + 1) + b"\xff" * (i % 2), 0o100644, i, i) for i in range(50)]
    decoded = [name for name, *_ in folder_scan._decode(folder_scan._encode(found))]
    assert decoded == [name.decode("utf-8", "surrogateescape") for name, *_ in found]


def test_an_answer_that_breaks_off_while_read_leaves_the_scan_to_this_process(big_store_folder, monkeypatch):
    folder, _store = big_store_folder
    here = _view_state(FsView.open(folder))

    def broken(_folder):
        yield from list(folder_scan.entries(folder) or ())[:3]
        raise ValueError("a partial scan")

    monkeypatch.setattr(folder_scan, "take", broken)
    assert _view_state(FsView.open(folder)) == here


def test_an_answer_is_read_into_a_mapping_that_is_closed_once_its_entries_are_read():
    import io

    answer = folder_scan._encode([(b"a", 0o100644, 1, 2), (b"b", 0o100644, 3, 4)])
    mapped = folder_scan._read(io.BytesIO(answer))
    assert bytes(mapped) == answer
    assert [name for name, *_ in folder_scan._decode(mapped)] == ["a", "b"]
    assert mapped.closed
    for cut in (len(answer) - 1, 10):  # a stream that ends early, in the scan or in its head
        with pytest.raises(ValueError):
            list(folder_scan._decode(folder_scan._read(io.BytesIO(answer[:cut]))))
    with pytest.raises(ValueError):
        folder_scan._read(io.BytesIO(answer + b"extra"))
