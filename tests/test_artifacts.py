"""File-name classification of the files beside sessions.json."""

import pytest

from openclaw_cli.store import artifacts as a

TS = "2026-02-23T12-34-56.000Z"
CP = "keep.checkpoint.0f8fad5b-d9cb-469f-a165-70867728950e.jsonl"


@pytest.mark.parametrize("name,archive,primary", [
    (f"abc.jsonl.deleted.{TS}", True, False),
    (f"abc.jsonl.reset.{TS}", True, False),
    (f"abc.jsonl.bak.{TS}", True, False),
    ("abc.jsonl.bak.2026-02-23T12-34-56Z", True, False),
    ("sessions.json.bak.1700000000000", True, False),
    ("keep.deleted.keep.jsonl", False, True),
    ("abc.jsonl.deleted.2026-02-23T12:34:56.000Z", False, False),
    ("abc.jsonl", False, True),
    ("sessions.json", False, False),
    ("abc.trajectory.jsonl", False, False),
    (CP, False, False),
    ("notes.txt", False, False),
])
def test_classification(name, archive, primary):
    assert a.is_archive(name) is archive
    assert a.is_primary_transcript(name) is primary


def test_checkpoint_names():
    assert a.is_checkpoint(CP)
    assert not a.is_checkpoint("keep.checkpoint.not-a-uuid.jsonl")
    assert not a.is_checkpoint(CP + f".deleted.{TS}")
    assert a.is_unreferenced_candidate(CP)


def test_archive_timestamp_round_trip():
    ms = 1771850096000  # Date.parse("2026-02-23T12:34:56.000Z")
    assert a.format_archive_timestamp(ms) == TS
    assert a.parse_archive_timestamp(f"x.jsonl.deleted.{TS}", "deleted") == ms
    assert a.parse_archive_timestamp(f"x.jsonl.deleted.{TS}", "reset") is None
    # Date.parse lets days run over the month end and accepts 24:00:00
    assert a.parse_archive_timestamp("x.deleted.2026-02-30T00-00-00Z", "deleted") == 1772409600000
    assert a.parse_archive_timestamp("x.deleted.2026-02-28T24-00-00Z", "deleted") == 1772323200000
    assert a.parse_archive_timestamp("x.deleted.2026-02-28T23-60-00Z", "deleted") is None


def test_temps_and_blobs():
    u = "0f8fad5b-d9cb-469f-a165-70867728950e"
    assert a.is_store_temp(f"sessions.json.111.{u}.tmp", "sessions.json")
    assert a.is_store_temp(f"SESSIONS.JSON.{u.upper()}.TMP", "sessions.json")
    assert not a.is_store_temp(f"other.json.{u}.tmp", "sessions.json")
    h = "ab" * 32
    assert a.is_prompt_blob(f"{h}.txt") and a.prompt_blob_hash(f"{h}.txt") == h
    assert a.is_prompt_blob_temp(f"{h}.txt.12.{u}.tmp")
    assert not a.is_prompt_blob(f"{h.upper()}.txt")


def test_generated_session_ids_in_transcript_names():
    u = "0f8fad5b-d9cb-469f-a165-70867728950e"
    assert a.generated_id_from_session_file(f"/x/{u}.jsonl") == u
    assert a.generated_id_from_session_file(f"{u}-topic-42.jsonl") == u
    assert a.generated_id_from_session_file(f"2026-01-02T03-04-05Z_{u}.jsonl") == u
    assert a.generated_id_from_session_file("plain.jsonl") is None
    assert a.generated_id_from_session_file(f"{u}.json") is None
