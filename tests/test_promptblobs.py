"""Skill-prompt blobs: thresholds, projection, hydration and how blobs are written."""

from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path

from openclaw_cli.store import promptblobs as P
from openclaw_cli.store import sessions_json as S


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_thresholds_count_utf16_units_and_utf8_bytes():
    assert not P.should_store_as_blob("x" * 511)
    assert P.should_store_as_blob("x" * 512)
    assert P.should_store_as_blob("\U0001f600" * 256)  # 256 code points, 512 UTF-16 units
    assert not P.should_store_as_blob("\U0001f600" * 255 + "a")
    assert P.should_store_as_blob("z" * (512 * 1024))
    assert not P.should_store_as_blob("z" * (512 * 1024 + 1))
    assert not P.should_store_as_blob("\u00e9" * (256 * 1024 + 1))  # 2 bytes each


def test_blob_path(tmp_path):
    h = "ab" + "0" * 62
    assert P.blob_path(tmp_path / "s" / "sessions.json", h) == str(
        tmp_path / "s" / "skills-prompts" / "sha256" / "ab" / f"{h}.txt")
    assert P.blob_path(tmp_path / "sessions.json", "AB" + "0" * 62) is None
    assert P.blob_path(tmp_path / "sessions.json", "ab") is None


def test_projection_appends_ref_last_and_keeps_store_order(tmp_path):
    prompt = "p" * 600
    store = {"b": {"x": 1}, "a": {"skillsSnapshot": {"prompt": prompt, "skills": [], "v": 1}},
             "c": {"skillsSnapshot": {"promptRef": "old", "prompt": prompt}}}
    persisted, blobs, changed = P.project_store(store, tmp_path / "sessions.json")
    assert changed and persisted is not store and list(persisted) == ["b", "a", "c"]
    assert persisted["b"] is store["b"]
    ref = {"version": 1, "algorithm": "sha256", "hash": sha(prompt), "bytes": 600}
    assert persisted["a"]["skillsSnapshot"] == {"skills": [], "v": 1, "promptRef": ref}
    assert list(persisted["a"]["skillsSnapshot"]) == ["skills", "v", "promptRef"]
    assert list(persisted["c"]["skillsSnapshot"]) == ["promptRef"]  # existing key keeps place
    assert store["a"]["skillsSnapshot"]["prompt"] == prompt  # input untouched
    assert list(blobs) == [sha(prompt)]
    same, none, unchanged = P.project_store({"a": {"x": 1}}, tmp_path / "sessions.json")
    assert not unchanged and not none and same == {"a": {"x": 1}}


def test_hydrate(tmp_path):
    store_path = tmp_path / "sessions.json"
    prompt = "q" * 700
    h = sha(prompt)
    blob = tmp_path / "skills-prompts" / "sha256" / h[:2] / f"{h}.txt"
    blob.parent.mkdir(parents=True)
    blob.write_text(prompt)
    ref = {"version": 1, "algorithm": "sha256", "hash": h, "bytes": 700}
    store = {
        "ok": {"skillsSnapshot": {"promptRef": ref, "skills": ["w"]}, "z": 1},
        "bad": {"skillsSnapshot": {"promptRef": dict(ref, bytes=699)}},
        "none": {"skillsSnapshot": {"skills": []}},
        "inline": {"skillsSnapshot": {"prompt": "short"}},
        "falsy": {"skillsSnapshot": 0},
    }
    assert P.hydrate_store(store, store_path) is True
    assert store["ok"] == {"skillsSnapshot": {"skills": ["w"], "prompt": prompt}, "z": 1}
    assert list(store["ok"]) == ["skillsSnapshot", "z"]
    assert store["bad"] == {} and store["none"] == {}
    assert store["inline"]["skillsSnapshot"] == {"prompt": "short"}
    assert store["falsy"] == {"skillsSnapshot": 0}
    assert P.hydrate_store({"x": {"skillsSnapshot": None}}, store_path) is False


def test_ensure_writes_atomically_then_touches(tmp_path, monkeypatch):
    store_path = tmp_path / "sessions" / "sessions.json"
    prompt = "r" * 900
    blobs = {sha(prompt): P.PromptBlob(P.build_prompt_ref(prompt), None, prompt)}
    temps = []
    real = os.rename
    monkeypatch.setattr(os, "rename", lambda a, b: temps.append(os.path.basename(a)) or real(a, b))
    P.ensure_prompt_blobs(blobs, store_path)
    path = P.blob_path(store_path, sha(prompt))
    assert Path(path).read_text() == prompt and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert temps[0].startswith(f"{sha(prompt)}.txt.{os.getpid()}.") and temps[0].endswith(".tmp")
    assert os.listdir(os.path.dirname(path)) == [os.path.basename(path)]
    old = time.time() - 3600
    os.utime(path, (old, old))
    P.ensure_prompt_blobs(blobs, store_path)  # valid: only touched
    assert len(temps) == 1 and os.stat(path).st_mtime > old + 1000
    with open(path, "w") as fh:
        fh.write("R" * 900)  # same size, wrong content: rewritten
    P.ensure_prompt_blobs(blobs, store_path)
    assert len(temps) == 2 and Path(path).read_text() == prompt


def test_store_save_writes_blobs_and_refs(tmp_path):
    store_path = tmp_path / "sessions.json"
    prompt = "s" * 1000
    store = {"k": {"sessionId": "abc", "skillsSnapshot": {"prompt": prompt}}}
    assert S.save_store(store_path, store) is True
    text = store_path.read_text()
    assert '"promptRef": {\n        "version": 1,\n        "algorithm": "sha256",' in text
    assert prompt not in text
    loaded = S.load_store(store_path)
    assert loaded.store["k"]["skillsSnapshot"]["prompt"] == prompt
    assert loaded.changed and loaded.unchanged_serialization is None
