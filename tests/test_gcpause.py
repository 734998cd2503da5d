"""What a run builds to keep (a loaded store, a folder's scan) is kept out of later garbage collections,
and handed back to the collector when the run ends, so an in-process caller keeps collecting it."""

import gc
import json

from helpers.cli import run

from openclaw_cli.gcpause import paused
from openclaw_cli.store.sessions_json import load_store


def _store(tmp_path, entries: int = 50):
    sessions = tmp_path / ".openclaw" / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    store = sessions / "sessions.json"
    store.write_text(json.dumps({f"agent:main:k{i}": {"sessionId": f"s{i}", "updatedAt": 1} for i in range(entries)}))
    return store


def test_a_loaded_store_is_frozen_out_of_later_collections(tmp_path):
    store = _store(tmp_path)
    gc.unfreeze()
    try:
        loaded = load_store(store)
        frozen = gc.get_freeze_count()
        assert len(loaded.store) == 50 and frozen > 0
        assert gc.isenabled()  # collection resumes, on what is made from now on
    finally:
        gc.unfreeze()


def test_collection_stays_off_inside_and_resumes_as_it_was():
    gc.unfreeze()
    try:
        with paused():
            assert not gc.isenabled()
        assert gc.isenabled()
        gc.disable()
        with paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


def test_a_run_leaves_nothing_frozen_for_its_caller(tmp_path):
    store = _store(tmp_path)
    gc.unfreeze()
    result = run(["sessions", "cleanup", "--dry-run", "--json", "--store", str(store)], tmp_path)
    assert result.returncode == 0, result.stderr
    assert gc.get_freeze_count() == 0
