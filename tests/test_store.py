"""sessions.json load/normalise/save against the reference 2026.7.1 (`--enforce --store`)."""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from pathlib import Path

import pytest
from helpers import cli
from helpers.folders import folder_digest
from helpers.references import every_file_era_release
from helpers.state import state_dir, write_config

from openclaw_cli.errors import StoreError
from openclaw_cli.js import json as jsjson
from openclaw_cli.store import sessions_json as S

sys.path.insert(0, str(Path(__file__).resolve().parent / "data" / "store"))
import gen_entries

NOW = int(time.time() * 1000)
# Nothing is old enough to prune and the entry cap is out of reach, so `--enforce` only
# loads, normalises and saves.
CONFIG = {"session": {"maintenance": {"pruneAfter": "100000d", "maxEntries": 1000000}}}


def run_reference_save(reference, home: Path, store_path: Path,
                       env: dict[str, str] | None = None) -> None:
    write_config(state_dir(home), CONFIG, indent=None)
    res = reference.run_reference(
        ["sessions", "cleanup", "--enforce", "--store", str(store_path), "--json"], home=home,
        env=env)
    assert res.returncode == 0, res.stderr[-2000:]
    summary = json.loads(res.stdout)
    assert summary["pruned"] == 0 and summary["capped"] == 0 and summary["modelRunPruned"] == 0


def run_ours_save(store_path: Path) -> bool:
    loaded = S.load_store(store_path)
    return S.save_store(store_path, loaded.store,
                        unchanged_serialization=loaded.unchanged_serialization)


def tree(folder: Path) -> dict[str, tuple[int, bytes | None]]:
    """Every path under folder (and folder itself) with its permission bits and content."""
    out = {".": (stat.S_IMODE(folder.stat().st_mode), None)}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            p = Path(root) / name
            st = p.lstat()
            rel = str(p.relative_to(folder))
            out[rel] = (stat.S_IMODE(st.st_mode), p.read_bytes() if p.is_file() else None)
    return out


def make_case(base: Path, name: str, content: bytes | None,
              blobs: dict[str, bytes] | None = None) -> tuple[Path, Path]:
    """Two identical sessions folders (reference, ours) holding `content` as sessions.json."""
    paths = []
    for side in ("ref", "ours"):
        folder = base / name / side / "sessions"
        folder.mkdir(parents=True)
        if content is not None:
            (folder / "sessions.json").write_bytes(content)
        for rel, data in (blobs or {}).items():
            p = folder / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
        paths.append(folder / "sessions.json")
    return paths[0], paths[1]


def assert_same_tree(ref_store: Path, our_store: Path) -> None:
    ref_tree, our_tree = tree(ref_store.parent), tree(our_store.parent)
    assert sorted(ref_tree) == sorted(our_tree)
    for rel in ref_tree:
        if ref_tree[rel] != our_tree[rel]:
            if rel == "sessions.json":
                show_store_diff(ref_tree[rel][1], our_tree[rel][1])
            assert ref_tree[rel] == our_tree[rel], rel


def show_store_diff(ref: bytes | None, ours: bytes | None) -> None:
    if ref is None or ours is None:
        return
    try:
        a, b = json.loads(ref), json.loads(ours)
    except ValueError:
        return
    for key in list(a)[:100000]:
        if json.dumps(a.get(key)) != json.dumps(b.get(key)):
            print("first differing entry:", key)
            print(" reference:", json.dumps(a.get(key))[:1500])
            print(" ours     :", json.dumps(b.get(key))[:1500])
            break
    print("key order equal:", list(a) == list(b))


def current_umask() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


def pretty(value) -> bytes:
    return jsjson.dumps_pretty_bytes(value)


# ---------------------------------------------------------------------------------------
# differential tests (each case runs the reference once)


@every_file_era_release
@pytest.mark.reference
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_stores_match_reference(reference, tmp_path, seed):
    store = gen_entries.rand_store(seed, 1500, NOW)
    content = pretty(store) if seed % 2 else jsjson.dumps_compact_bytes(store)
    ref_path, our_path = make_case(tmp_path, f"seed{seed}", content)
    run_reference_save(reference, tmp_path / "home", ref_path)
    assert run_ours_save(our_path) is True
    assert_same_tree(ref_path, our_path)
    # Second round on the saved output: hydrates prompt refs from the blobs just written.
    run_reference_save(reference, tmp_path / "home", ref_path)
    assert run_ours_save(our_path) is True
    assert_same_tree(ref_path, our_path)


@every_file_era_release
@pytest.mark.reference
def test_hand_written_texts_match_reference(reference, tmp_path):
    """Non-canonical JSON: numbers, key order, duplicates, escapes, whitespace."""
    entries = [
        '"a": {"sessionId": "s1", "updatedAt": 1.7e12, "n": [5.0, -0, -0.0, 1E5, 1e400, 0.1e-6,'
        ' 12345678901234567890, 1.5e-6, 4.99999999999999999, 123456789012345680000.0]}',
        '"b": {"2": 1, "1": {"b": 1, "10": 2, "9": 3}, "sessionId": "s2", "x": "\\u00e9\\/\\ud83d'
        '\\ude00\\ud800", "x": "dup wins"}',
        '"7": {"sessionId": "s3"}', '"-1": {"sessionId": "s4"}', '"01": {"sessionId": "s5"}',
        '"4294967295": {"sessionId": "s6"}', '"4294967294": {"sessionId": "s7"}',
        '"b": {"sessionId": "s8", "later": true}',
        '"c": {"sessionId": "s9", "label": "ctl \\u0001 \\u001f \\u007f \\u2028 \\t"}',
        '"ghost": {"channel": "\\ufeffsignal", "lastChannel": "  ", "label": "x", "lastTo": 5}',
        '"ghost2": {"lastChannel": "", "lastTo": "a", "channel": "teams", "lastThreadId": null,'
        ' "origin": {"threadId": 12}, "updatedAt": -5}',
        '"__proto__": {"sessionId": "p1", "channel": "telegram", "__proto__": {"x": 1}}',
        '"constructor": {"sessionId": "p2", "pluginExtensions": {"__proto__": {"a": 1},'
        ' "p": {"__proto__": {"b": 2}, " c ": 3}, "7": {"x": 1}}}',
    ]
    content = ("{\n\t" + ",\r\n ".join(entries) + "  }\n").encode()
    ref_path, our_path = make_case(tmp_path, "hand", content)
    run_reference_save(reference, tmp_path / "home", ref_path)
    run_ours_save(our_path)
    assert_same_tree(ref_path, our_path)


@every_file_era_release
@pytest.mark.reference
def test_invalid_utf8_matches_reference(reference, tmp_path):
    content = b'{"a": {"sessionId": "s1", "label": "bad \xff\xfe \xed\xa0\x80 \xe2\x82 ok"}}'
    ref_path, our_path = make_case(tmp_path, "utf8", content)
    run_reference_save(reference, tmp_path / "home", ref_path)
    run_ours_save(our_path)
    assert_same_tree(ref_path, our_path)


@every_file_era_release
@pytest.mark.reference
def test_blob_edge_cases_match_reference(reference, tmp_path):
    prompt = "p" * 600
    other = "q" * 700
    import hashlib
    h = hashlib.sha256(prompt.encode()).hexdigest()
    h2 = hashlib.sha256(other.encode()).hexdigest()

    def ref(digest, size, **extra):
        return {"version": 1, "algorithm": "sha256", "hash": digest, "bytes": size, **extra}

    store = {
        "ok": {"sessionId": "s1", "skillsSnapshot": {"skills": [], "promptRef": ref(h, 600),
                                                      "version": 2}},
        "ok-again": {"sessionId": "s2", "skillsSnapshot": {"promptRef": ref(h, 600)}},
        "size-mismatch": {"sessionId": "s3", "skillsSnapshot": {"promptRef": ref(h, 599)}},
        "missing-blob": {"sessionId": "s4", "skillsSnapshot": {"promptRef": ref("a" * 64, 10)}},
        "bad-hash": {"sessionId": "s5", "skillsSnapshot": {"promptRef": ref("A" * 64, 10)}},
        "altered": {"sessionId": "s6", "skillsSnapshot": {"promptRef": ref(h2, 700)}},
        "prompt-and-ref": {"sessionId": "s7", "skillsSnapshot": {
            "promptRef": {"stale": 1}, "prompt": other, "x": 1}},
        "prompt-number": {"sessionId": "s8", "skillsSnapshot": {"prompt": 5, "promptRef": ref(h, 600)}},
        "version-2": {"sessionId": "s9", "skillsSnapshot": {"promptRef": ref(h, 600) | {"version": 2}}},
        "float-bytes": {"sessionId": "s10", "skillsSnapshot": {"promptRef": ref(h, 600.5)}},
        "empty": {"sessionId": "s11", "skillsSnapshot": {}},
        "falsy": {"sessionId": "s12", "skillsSnapshot": 0},
        "null": {"sessionId": "s13", "skillsSnapshot": None},
        "string": {"sessionId": "s14", "skillsSnapshot": "x"},
        "array": {"sessionId": "s15", "skillsSnapshot": []},
    }
    blobs = {
        f"skills-prompts/sha256/{h[:2]}/{h}.txt": prompt.encode(),
        f"skills-prompts/sha256/{h2[:2]}/{h2}.txt": ("Q" * 700).encode(),  # same size, wrong hash
        "skills-prompts/sha256/zz/stray.txt": b"left alone",
    }
    ref_path, our_path = make_case(tmp_path, "blobs", pretty(store), blobs)
    run_reference_save(reference, tmp_path / "home", ref_path)
    run_ours_save(our_path)
    assert_same_tree(ref_path, our_path)


@every_file_era_release
@pytest.mark.reference
def test_special_files_match_reference(reference, tmp_path):
    """A missing file (and folder) becomes `{}`; an empty file only in the reference."""
    ref_path, our_path = make_case(tmp_path, "missing", None)
    run_reference_save(reference, tmp_path / "home", ref_path)
    run_ours_save(our_path)
    assert_same_tree(ref_path, our_path)
    assert our_path.read_bytes() == b"{}"
    # Our deliberate difference: the reference rewrites a 0-byte store as `{}`; we refuse.
    ref_path, our_path = make_case(tmp_path, "empty", b"")
    run_reference_save(reference, tmp_path / "home", ref_path)
    assert ref_path.read_bytes() == b"{}"
    with pytest.raises(StoreError, match="the file is empty"):
        run_ours_save(our_path)
    assert our_path.read_bytes() == b""
    # The reference opens a private sessions folder up to 0o777 & ~umask on write; we
    # deliberately keep its permissions. Everything else is identical.
    ref_path, our_path = make_case(tmp_path, "private", b"{ }")
    for p in (ref_path, our_path):
        p.parent.chmod(0o700)
    run_reference_save(reference, tmp_path / "home", ref_path)
    run_ours_save(our_path)
    assert stat.S_IMODE(ref_path.parent.stat().st_mode) == 0o777 & ~current_umask()
    assert stat.S_IMODE(our_path.parent.stat().st_mode) == 0o700
    our_path.parent.chmod(0o777 & ~current_umask())
    assert_same_tree(ref_path, our_path)
    ref_path = tmp_path / "deep" / "ref" / "a" / "b" / "sessions.json"
    our_path = tmp_path / "deep" / "ours" / "a" / "b" / "sessions.json"
    run_reference_save(reference, tmp_path / "home", ref_path)
    run_ours_save(our_path)
    assert tree(ref_path.parent.parent.parent) == tree(our_path.parent.parent.parent)


@every_file_era_release
@pytest.mark.reference
def test_unchanged_store_is_not_rewritten(reference, tmp_path, monkeypatch):
    """A store the reference would write identically keeps its bytes and mtime."""
    store = gen_entries.rand_store(9, 300, NOW)
    for entry in store.values():
        if isinstance(entry, dict):
            entry.pop("skillsSnapshot", None)
    ref_path, our_path = make_case(tmp_path, "canon", pretty(store))
    run_reference_save(reference, tmp_path / "home", ref_path)
    assert run_ours_save(our_path) is True
    assert_same_tree(ref_path, our_path)
    old = 1_600_000_000
    for p in (ref_path, our_path):
        os.utime(p, (old, old))
        os.chmod(p, 0o644)
    run_reference_save(reference, tmp_path / "home", ref_path)
    assert run_ours_save(our_path) is False
    for p in (ref_path, our_path):
        st = p.stat()
        assert st.st_mtime == old and stat.S_IMODE(st.st_mode) == 0o644
    assert ref_path.read_bytes() == our_path.read_bytes()
    # The reference only remembers texts up to OPENCLAW_SESSION_SERIALIZED_CACHE_MAX_BYTES
    # (64 MiB): a bigger store is rewritten even when nothing changed.
    small = {S.SERIALIZED_CACHE_ENV: "100"}
    run_reference_save(reference, tmp_path / "home", ref_path, env=small)
    monkeypatch.setenv(S.SERIALIZED_CACHE_ENV, "100")
    assert run_ours_save(our_path) is True
    monkeypatch.delenv(S.SERIALIZED_CACHE_ENV)
    for p in (ref_path, our_path):
        st = p.stat()
        assert st.st_mtime != old and stat.S_IMODE(st.st_mode) == 0o600
        os.utime(p, (old, old))
    assert ref_path.read_bytes() == our_path.read_bytes()
    # ... and a legacy field forces a rewrite even when the text comes out the same size.
    text = our_path.read_bytes().replace(b'"sessionId"', b'"room": 1, "sessionId"', 1)
    for p in (ref_path, our_path):
        p.write_bytes(text)
        os.utime(p, (old, old))
    run_reference_save(reference, tmp_path / "home", ref_path)
    assert run_ours_save(our_path) is True
    assert ref_path.stat().st_mtime != old and our_path.stat().st_mtime != old
    assert_same_tree(ref_path, our_path)


# ---------------------------------------------------------------------------------------
# our deliberate differences and local behaviour


@pytest.mark.parametrize("content", [b"{not json", b"\xef\xbb\xbf{}", b"[]", b"null", b'"x"',
                                     b"5", b" ", b"{} {}", b"", b"\n", b" \t\r\n"])
def test_corrupt_store_raises_and_is_untouched(tmp_path, content):
    path = tmp_path / "sessions.json"
    path.write_bytes(content)
    with pytest.raises(StoreError) as info:
        S.load_store(path)
    msg = info.value.message
    assert str(path) in msg and "\n" not in msg and ("backup" in msg or "aside" in msg)
    assert path.read_bytes() == content
    loaded = S.load_store(path, allow_corrupt=True)
    assert loaded.corrupt and loaded.store == {} and loaded.error
    assert loaded.raw_text == content.decode("utf-8", "replace")


STORE_READERS = [["sessions"], ["sessions", "--json"], ["sessions", "cleanup", "--dry-run"],
                 ["sessions", "cleanup", "--dry-run", "--json"], ["sessions", "cleanup", "--enforce"],
                 ["context", "list"], ["context", "detail"], ["compact", "agent:main:main", "--dry-run"],
                 ["compact", "agent:main:main", "--max-lines", "1"], ["doctor", "--lint", "--json", "--all"],
                 ["doctor", "--non-interactive"]]


@pytest.mark.parametrize("argv", STORE_READERS, ids=" ".join)
def test_every_command_treats_an_empty_store_file_exactly_like_one_that_does_not_parse(tmp_path, argv):
    """Same exit code and output (but for the reason given), and nothing changed on disk."""
    runs = []
    for content in (b"{not json", b""):
        home = tmp_path / ("corrupt" if content else "empty")
        folder = home / ".openclaw" / "agents" / "main" / "sessions"
        folder.mkdir(parents=True)
        (folder / "sessions.json").write_bytes(content)
        for sid in ("a", "b"):
            (folder / f"{sid}.jsonl").write_text('{"type":"message","message":{"role":"user","content":"hi"}}\n')
        reason = S.load_store(folder / "sessions.json", allow_corrupt=True).error
        before = folder_digest(home)
        result = cli.run(argv, home, {"OPENCLAW_GATEWAY_PORT": "1"})
        assert folder_digest(home) == before

        def same(text: str, reason: str = reason, home: Path = home) -> str:
            return text.replace(reason, "<reason>").replace(str(home), "<home>")

        runs.append((result.returncode, same(result.stdout), same(result.stderr)))
    assert runs[0] == runs[1]
    assert "<reason>" in runs[1][1] + runs[1][2]


def test_folder_in_place_of_store_raises(tmp_path):
    (tmp_path / "sessions.json").mkdir()
    with pytest.raises(StoreError, match="directory"):
        S.load_store(tmp_path / "sessions.json")


def test_unreadable_store_raises(tmp_path, monkeypatch):
    path = tmp_path / "sessions.json"
    path.write_text("{}")

    def denied(p):
        raise PermissionError(13, "Permission denied", str(p))

    monkeypatch.setattr(S, "_read_bytes", denied)
    with pytest.raises(StoreError, match="permission denied"):
        S.load_store(path, allow_corrupt=True)


@pytest.mark.parametrize("content, why", [(b"", "the file is empty"),
                                          (b"  \n", "the file holds only whitespace")])
def test_an_empty_file_is_read_three_times_then_refused_like_a_corrupt_one(tmp_path, monkeypatch, content, why):
    """Our deliberate difference: OpenClaw reads a 0-byte store as `{}` (and its next write
    and sweep treat every transcript as unreferenced); it is a store that does not parse."""
    path = tmp_path / "sessions.json"
    path.write_bytes(content)
    reads = []
    real = S._read_bytes
    monkeypatch.setattr(S, "_read_bytes", lambda p: reads.append(p) or real(p))
    t = time.monotonic()
    with pytest.raises(StoreError) as info:
        S.load_store(path)
    assert len(reads) == 3 and time.monotonic() - t >= 0.09
    assert info.value.message == (f"session store {path} is not valid ({why}); restore it from a backup "
                                  "or move it aside so a fresh store is created")
    loaded = S.load_store(path, allow_corrupt=True)
    assert loaded.exists and loaded.corrupt and loaded.error == why and loaded.store == {}
    assert path.read_bytes() == content


def test_a_store_that_is_empty_at_first_read_and_written_by_the_retry_loads(tmp_path, monkeypatch):
    """A writer caught mid-way: the 50 ms retry reads the finished store."""
    path = tmp_path / "sessions.json"
    path.write_bytes(b"")
    real = S._read_bytes

    def read_then_finish(p):
        data = real(p)
        path.write_bytes(pretty({"agent:main:main": {"sessionId": "m", "updatedAt": 1}}))
        return data

    monkeypatch.setattr(S, "_read_bytes", read_then_finish)
    loaded = S.load_store(path)
    assert not loaded.corrupt and list(loaded.store) == ["agent:main:main"]


def test_missing_store(tmp_path):
    loaded = S.load_store(tmp_path / "nope" / "sessions.json")
    assert not loaded.exists and loaded.store == {}


def test_dropped_keys_and_changed_flags(tmp_path):
    path = tmp_path / "sessions.json"
    store = {"a": {"sessionId": "ok", "updatedAt": 1}, "b": {"sessionId": "../x"}, "c": 5,
             "d": {"sessionId": "fine"}}
    path.write_bytes(pretty(store))
    loaded = S.load_store(path)
    assert loaded.dropped_keys == ["b", "c"] and loaded.changed
    assert list(loaded.store) == ["a", "d"] and loaded.unchanged_serialization is None
    canon = {"a": {"sessionId": "ok", "updatedAt": 1}}
    path.write_bytes(pretty(canon))
    loaded = S.load_store(path, keep_raw=True)
    assert not loaded.changed and loaded.unchanged_serialization is not None
    assert loaded.raw_text == pretty(canon).decode()


def test_normalised_entries_keep_identity():
    store = gen_entries.rand_store(11, 3000, NOW)
    store = S.SessionStore(jsjson.loads(jsjson.dumps_compact_bytes(store)))
    S.normalize_store(store)
    S.normalize_store(store)  # the reference's normalisation is not always idempotent
    before = dict(store)
    assert S.normalize_store(store) is False
    assert all(store[k] is before[k] for k in store)


def test_ghost_keys_keep_their_place(tmp_path):
    """A blank lastChannel is dropped on load (held as undefined); on save the channel
    fallback defines it again, in its old place, while route and deliveryContext go last."""
    path = tmp_path / "sessions.json"
    path.write_bytes(pretty({"k": {"channel": "\ufeffsignal", "lastChannel": "  ",
                                   "label": "x"}}))
    loaded = S.load_store(path)
    assert list(loaded.store["k"]) == ["channel", "label"]
    S.save_store(path, loaded.store)
    saved = json.loads(path.read_text())
    assert list(saved["k"]) == ["channel", "lastChannel", "label", "route", "deliveryContext"]


def test_serialized_cache_limit(tmp_path, monkeypatch):
    path = tmp_path / "sessions.json"
    path.write_bytes(pretty({"a": {"sessionId": "x"}}))
    assert S.load_store(path).unchanged_serialization is not None
    monkeypatch.setenv(S.SERIALIZED_CACHE_ENV, "10")
    assert S.load_store(path).unchanged_serialization is None
    monkeypatch.setenv(S.SERIALIZED_CACHE_ENV, "0")
    assert S.load_store(path).unchanged_serialization is None


def test_measure_helpers_match_serialisation(tmp_path):
    store = gen_entries.rand_store(5, 400, NOW)
    store = jsjson.loads(jsjson.dumps_compact_bytes(store))
    S.normalize_store(store)
    proj = S.serialize_store(store, tmp_path / "sessions.json")
    from openclaw_cli.store.promptblobs import project_store
    projected, blobs, _ = project_store(store, tmp_path / "sessions.json")
    assert proj.text == pretty(projected)
    assert S.measure_store_bytes(projected) == len(proj.text) == proj.size_bytes
    sizes = proj.entry_chunk_sizes()
    assert list(sizes) == list(projected)
    for key, entry in projected.items():
        assert sizes[key] == S.entry_chunk_bytes(key, entry)
    assert set(blobs) == set(proj.prompt_blobs)
    assert proj.blob_hashes == {
        k: e["skillsSnapshot"]["promptRef"]["hash"] for k, e in projected.items()
        if isinstance(e.get("skillsSnapshot"), dict)
        and isinstance(e["skillsSnapshot"].get("promptRef"), dict)
        and e["skillsSnapshot"]["promptRef"].get("algorithm") == "sha256"}


@pytest.mark.parametrize("count", [0, 1, 2500])  # none, one, and more than one block of entries
def test_a_fingerprinted_store_is_written_as_the_text_serialize_store_makes(tmp_path, count):
    store = jsjson.loads(jsjson.dumps_compact_bytes(gen_entries.rand_store(11, count, NOW)))
    S.normalize_store(store)
    path = tmp_path / "sessions.json"
    text = S.serialize_store(store, path)
    fingerprinted = S.fingerprint_store(store, path)
    assert fingerprinted.chunks == []
    assert fingerprinted.fingerprint == S.StoreFingerprint.of(text.text)
    assert fingerprinted.prompt_blobs == text.prompt_blobs
    assert fingerprinted.blob_hashes == text.blob_hashes
    assert fingerprinted.changed == text.changed
    assert S.measure_serialized(store, path).size_bytes == len(text.text)
    assert b"".join(S.store_text(store, path, fingerprinted.fingerprint)) == text.text
    S.write_store_text_atomic(path, S.store_text(store, path, fingerprinted.fingerprint), durable=False)
    assert path.read_bytes() == text.text


def test_a_streamed_store_text_that_differs_from_its_fingerprint_is_refused_unwritten(tmp_path):
    store = {"agent:main:main": {"sessionId": "s1", "updatedAt": NOW}}
    path = tmp_path / "sessions.json"
    path.write_bytes(b"{}")
    expected = S.fingerprint_store(store, path).fingerprint
    store["agent:main:main"]["updatedAt"] = NOW + 1
    with pytest.raises(StoreError, match="changed after the cleanup was planned"):
        S.write_store_text_atomic(path, S.store_text(store, path, expected), durable=False)
    assert path.read_bytes() == b"{}"
    assert [p.name for p in tmp_path.iterdir()] == ["sessions.json"]  # no temp file left behind


def test_atomic_write_modes_and_temp_names(tmp_path, monkeypatch):
    path = tmp_path / "d" / "sessions.json"
    seen = []
    real_rename = os.rename
    monkeypatch.setattr(os, "rename", lambda a, b: seen.append(a) or real_rename(a, b))
    S.write_store_text_atomic(path, "{}", durable=True)
    assert path.read_bytes() == b"{}" and stat.S_IMODE(path.stat().st_mode) == 0o600
    name = os.path.basename(seen[0])
    assert name.startswith(f"sessions.json.{os.getpid()}.") and name.endswith(".tmp")
    assert os.listdir(path.parent) == ["sessions.json"]


def test_fingerprint_compares_with_text_and_copy_keeps_ghosts(tmp_path):
    path = tmp_path / "sessions.json"
    text = pretty({"a": {"sessionId": "x", "updatedAt": 1}})
    path.write_bytes(text)
    loaded = S.load_store(path)
    assert loaded.unchanged_serialization == text.decode()
    assert loaded.unchanged_serialization == text
    assert loaded.unchanged_serialization != text.decode() + " "
    path.write_bytes(pretty({"k": {"channel": "teams", "lastChannel": " ", "x": 1}}))
    store = S.load_store(path).store
    assert store.ghost_orders and store.copy().ghost_orders == store.ghost_orders
    assert S.save_store(path, store.copy()) is True


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_large_store_read_a_piece_at_a_time_loads_as_the_whole_text_does(tmp_path, monkeypatch, seed):
    from openclaw_cli.js import bigjson

    monkeypatch.setattr(bigjson, "PIECEWISE_MIN_BYTES", 0)
    monkeypatch.setattr(bigjson, "PIECE_BYTES", 2000)
    store = gen_entries.rand_store(seed, 400, NOW)
    path = tmp_path / "sessions.json"
    path.write_bytes(b"\n" + pretty(store) if seed == 3 else pretty(store))
    whole_reads: list[str] = []
    real_read_bytes = S._read_bytes
    monkeypatch.setattr(S, "_read_bytes", lambda p: whole_reads.append(p) or real_read_bytes(p))
    streamed = S.load_store(path)
    assert whole_reads == []
    whole = S.load_store(path, keep_raw=True)  # the raw text is kept: read whole
    assert whole_reads == [str(path)]
    assert json.dumps(streamed.store) == json.dumps(whole.store)
    assert streamed.store.ghost_orders == whole.store.ghost_orders
    for name in ("unchanged_serialization", "dropped_keys", "changed", "size_bytes", "exists", "corrupt"):
        assert getattr(streamed, name) == getattr(whole, name), name
