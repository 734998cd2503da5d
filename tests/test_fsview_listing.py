"""What a sessions-folder view lists, and the sizes and references the planner asks of it."""

import os

from openclaw_cli.maintenance.entries import EntryPaths
from openclaw_cli.maintenance.fsview import FileInfo, FsView


def _folder(tmp_path, names: dict[str, bytes]):
    folder = tmp_path / "sessions"
    folder.mkdir()
    for name, data in names.items():
        (folder / name).write_bytes(data)
    return folder


def test_files_are_listed_in_byte_order_whatever_their_names():
    names = ["b.jsonl", "a.jsonl", "é.jsonl", "z.jsonl", "\udc80.jsonl", "A.jsonl"]
    view = FsView(sessions_dir="/x", real_dir="/x", scanned=True,
                  _files={f"/x/{n}": FileInfo(f"/x/{n}", f"/x/{n}", 1, 0) for n in names})
    listed = [f.name for f in view.list_files()]
    assert listed == sorted(names, key=lambda n: n.encode("utf-8", "surrogateescape"))
    assert listed.index("\udc80.jsonl") < listed.index("é.jsonl")  # raw byte 0x80 before 0xC3


def test_listed_sizes_answer_for_listed_files_only(tmp_path):
    folder = _folder(tmp_path, {"a.jsonl": b"12345", "b.jsonl": b""})
    (folder / "sub").mkdir()
    view = FsView.open(str(folder))
    size = view.listed_sizes([])
    real = os.path.realpath(folder)
    assert size(f"{real}/a.jsonl") == 5
    assert size(f"{real}/b.jsonl") == 0
    assert size(f"{real}/sub") == 0
    assert size(f"{real}/missing.jsonl") == 0
    assert size("/elsewhere/a.jsonl") == 0


def test_listed_sizes_follow_planned_effects(tmp_path):
    folder = _folder(tmp_path, {"a.jsonl": b"12345"})
    view = FsView.open(str(folder))
    real = os.path.realpath(folder)
    view.plan_rename(f"{real}/a.jsonl", f"{real}/a.jsonl.deleted.x", "archive")
    size = view.listed_sizes([])
    assert size(f"{real}/a.jsonl") == 0
    assert size(f"{real}/a.jsonl.deleted.x") == 5


def test_referenced_paths_hold_the_listed_files_an_entry_keeps_and_nothing_missing(tmp_path):
    folder = _folder(tmp_path, {"s1.jsonl": b"x", "s2.jsonl": b"y", "orphan.jsonl": b"z"})
    view = FsView.open(str(folder))
    paths = EntryPaths(view, {})
    real = os.path.realpath(folder)
    store = {"agent:main:a": {"sessionId": "s1"}, "agent:main:b": {"sessionId": "s2"},
             "agent:main:c": {"sessionId": "gone"}}
    referenced = paths.referenced_paths(store)
    assert referenced == {f"{real}/s1.jsonl", f"{real}/s2.jsonl"}
    listed = {f.canonical: f.canonical for f in view.list_files()}
    assert all(any(p is q for q in listed.values()) for p in referenced)  # the listing's own strings
    assert paths.listed_artifacts([store["agent:main:b"], store["agent:main:c"]]) == {f"{real}/s2.jsonl"}


def test_a_renamed_file_takes_its_byte_order_place_among_the_listed_ones(tmp_path):
    folder = _folder(tmp_path, {"a.jsonl": b"1", "\u00e9.jsonl": b"2", "m.jsonl": b"3"})
    view = FsView.open(str(folder))
    real = os.path.realpath(folder)
    view.plan_rename(f"{real}/m.jsonl", f"{real}/\u00ff.jsonl", "archive")
    view.plan_rename(f"{real}/a.jsonl", f"{real}/b.jsonl", "archive")
    listed = view.list_files()
    assert [f.name for f in listed] == ["b.jsonl", "\u00e9.jsonl", "\u00ff.jsonl"]
    assert all(f.canonical == f"{real}/{f.name}" for f in listed)


def _general_references(paths: EntryPaths, store: dict, listed: set[str]) -> set[str]:
    """The listed artifacts of every entry by the general resolution alone (no plain-name shortcut)."""
    from openclaw_cli.js import paths as jspath
    from openclaw_cli.store import session_files as sp

    base = paths.view.canonical(paths.sessions_dir)
    out: set[str] = set()
    for entry in store.values():
        sid = entry.get("sessionId")
        if not sid or not isinstance(sid, str):
            continue
        resolved = sp.session_file_path_or_none(sid, entry.get("sessionFile"), paths.sessions_dir, paths.env, paths.rp)
        transcript = None if resolved is None else paths.view.canonical(resolved)
        if transcript is None or not jspath.is_inside(base, transcript):
            continue
        for p in (transcript, sp.trajectory_pointer_path(transcript), sp.trajectory_runtime_path(transcript)):
            if p in listed:
                out.add(p)
    return out


def test_referenced_paths_agree_with_the_general_resolution_for_every_shape_of_entry(tmp_path):
    names = ["s1.jsonl", "s1.trajectory.jsonl", "s1.trajectory-path.json", " s2.jsonl", "s2.jsonl", "a.b.jsonl",
             "x.checkpoint.0b7e2f8a-1c2d-4e5f-8a9b-0c1d2e3f4a5b.jsonl", "file.txt", "file.txt.trajectory-path.json",
             ".hidden.jsonl", "Up.jsonl", "real.jsonl"]
    folder = _folder(tmp_path, dict.fromkeys(names, b"{}\n"))
    os.symlink(folder / "real.jsonl", folder / "link.jsonl")
    real = os.path.realpath(folder)
    ids = ["s1", " s2", "s2 ", "a.b", "x.checkpoint.0b7e2f8a-1c2d-4e5f-8a9b-0c1d2e3f4a5b", ".hidden", "Up", "link",
           "missing", 7, None, ""]
    store = {f"agent:main:{i}": {"sessionId": sid} for i, sid in enumerate(ids)}
    store |= {f"agent:main:f{i}": {"sessionId": "s1", "sessionFile": file} for i, file in enumerate(
        [f"{real}/file.txt", f"{real}/s2.jsonl", f" {real}/s2.jsonl", "s1.jsonl", f"{real}/../sessions/s1.jsonl",
         f"{real}/link.jsonl", "/elsewhere/s1.jsonl", 5])}
    for with_links in (True, False):
        if not with_links:
            os.unlink(folder / "link.jsonl")
        view = FsView.open(str(folder))
        paths = EntryPaths(view, {})
        listed = {f.canonical for f in view.list_files()}
        expected = _general_references(paths, store, listed)
        assert paths.referenced_paths(store) == expected
        assert f"{real}/s1.trajectory-path.json" in expected and f"{real}/a.b.jsonl" in expected


def test_a_plain_transcript_id_is_exactly_one_valid_without_trimming():
    from openclaw_cli.store.session_files import plain_transcript_id, valid_transcript_id

    ids = ["abc", "A-b_c.d", " abc", "abc\u00a0", ".abc", "a" * 128, "a" * 129, "x.checkpoint.0b7e2f8a-1c2d-4e5f-8a9b-"
           "0c1d2e3f4a5b", "x.Checkpoint.y", "a/b", "", 3, None, "é"]
    assert [plain_transcript_id(i) for i in ids] == [i is not None and valid_transcript_id(i) == i for i in ids]
    assert plain_transcript_id("abc") and not plain_transcript_id(" abc")


def _listing_map(view: FsView) -> dict[str, tuple]:
    return {f.canonical: (f.path, f.size, f.mtime_ns)
            for f in (*view.list_files(), *view.list_blob_files())}


def test_the_listed_map_is_the_listing_before_and_after_planned_effects(tmp_path):
    folder = _folder(tmp_path, {"a.jsonl": b"12345", "b.jsonl": b"xy", "c.jsonl": b"z"})
    (folder / "sub").mkdir()
    blob = folder / "skills-prompts" / "sha256" / "ab" / f"ab{'0' * 62}.txt"
    view = FsView.open(str(folder))
    real = os.path.realpath(folder)
    assert {k: (f.path, f.size, f.mtime_ns) for k, f in view.listed().items()} == _listing_map(view)
    blob.parent.mkdir(parents=True)
    blob.write_text("prompt")
    view.plan_rename(f"{real}/a.jsonl", f"{real}/a.jsonl.deleted.x", "archive")
    view.plan_delete(f"{real}/b.jsonl", "sweep")
    view.note_written(f"{real}/new.jsonl", b"123", 7)
    view.note_written(f"{real}/sub/inner.jsonl", b"1", 7)  # below the folder: not listed
    listed = view.listed()
    expected = _listing_map(view)
    assert {k: (f.path, f.size, f.mtime_ns) for k, f in listed.items()} == expected
    assert f"{real}/a.jsonl.deleted.x" in listed and f"{real}/new.jsonl" in listed
    assert listed.get(f"{real}/a.jsonl") is None and f"{real}/b.jsonl" not in listed
    assert f"{real}/sub/inner.jsonl" not in listed and f"{real}/sub" not in listed
    assert listed[f"{real}/c.jsonl"] is view._files[f"{real}/c.jsonl"]  # the scan's own record
    assert len(listed) == len(expected) and any(k.endswith(".txt") for k in listed)
