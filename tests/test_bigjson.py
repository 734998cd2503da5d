"""A large store read piece by piece: the value JSON.parse gives, its long repeated strings kept once."""

from __future__ import annotations

import json

import pytest

from openclaw_cli.js import bigjson
from openclaw_cli.js import json as jsjson


@pytest.fixture(autouse=True)
def small_pieces(monkeypatch):
    """Pieces of a few hundred bytes, so that small texts go through every boundary."""
    monkeypatch.setattr(bigjson, "PIECEWISE_MIN_BYTES", 0)
    monkeypatch.setattr(bigjson, "PIECE_BYTES", 300)
    monkeypatch.setattr(jsjson, "SHARED_MIN_CHARS", 64)


PROMPT = "<skill>" + "use the tool. " * 20 + "</skill>"


def _store(n: int) -> dict:
    return {f"agent:main:s{i}": {"sessionId": f"id-{i}", "updatedAt": 1_700_000_000_000 + i, "ratio": 1.5,
                                 "big": 2 ** 60, "skillsSnapshot": {"prompt": PROMPT, "skills": [{"name": "a"}]}}
            for i in range(n)}


def _same(text: bytes):
    value = bigjson.loads_object(text)
    expected = jsjson.loads(text)
    assert value == expected
    assert json.dumps(value) == json.dumps(expected)  # the same key order at every level
    return value


def test_a_pretty_printed_store_reads_as_one_parse_reads_it_with_its_prompts_kept_once():
    value = _same(json.dumps(_store(40), indent=2).encode())
    prompts = {id(entry["skillsSnapshot"]["prompt"]) for entry in value.values()}
    assert len(value) == 40 and len(prompts) == 1


def test_a_key_repeated_in_a_later_piece_keeps_its_first_place_and_its_last_value():
    members = [f'  "k{i}": {{"n": {i}, "pad": "{"x" * 80}"}}' for i in range(20)]
    members.append('  "k3": {"n": "last"}')
    value = _same(("{\n" + ",\n".join(members) + "\n}\n").encode())
    assert list(value)[3] == "k3" and value["k3"] == {"n": "last"}


def test_integer_keys_from_every_piece_come_first_in_ascending_order_as_in_javascript():
    members = [f'  "{key}": {{"pad": "{"y" * 90}"}}' for key in ("b", "10", "a", "2", "c", "01", "1", "d", "0")]
    value = _same(("{\n" + ",\n".join(members) + "\n}").encode())
    assert list(value) == ["0", "1", "2", "10", "b", "a", "c", "01", "d"]


@pytest.mark.parametrize("text", [
    json.dumps(_store(30)).encode(),  # compact: no member lines to cut at
    json.dumps(_store(30), indent=4).encode(),  # members indented otherwise
    json.dumps({"outer": _store(30)}, indent=2).encode(),  # the members are one level down
    b"  \r\n" + json.dumps(_store(30), indent=2).replace("\n", "\r\n").encode(),
    json.dumps([_store(5)], indent=2).encode(),
], ids=["compact", "indent-4", "nested", "crlf", "array"])
def test_other_layouts_read_the_same(text):
    _same(text)


@pytest.mark.parametrize("damage", [
    lambda t: t.replace(b'"id-17"', b'"id-17'),
    lambda t: t.replace(b'"id-29"', b"\xff\xfe"),
    lambda t: t[:-3],
    lambda t: t.replace(b"\n  }", b"\n  },", 1) + b",",
], ids=["open-string", "not-utf8", "truncated", "stray-commas"])
def test_a_damaged_store_fails_with_the_error_one_parse_gives(damage):
    text = damage(json.dumps(_store(40), indent=2).encode())
    with pytest.raises(ValueError) as expected:
        jsjson.loads(text)
    with pytest.raises(ValueError) as ours:
        bigjson.loads_object(text)
    assert str(ours.value) == str(expected.value)


class _CountedReads:
    """A binary file whose reads are recorded (how many bytes each returned)."""

    def __init__(self, data: bytes):
        import io

        self._fh, self.reads = io.BytesIO(data), []

    def read(self, n: int = -1) -> bytes:
        data = self._fh.read(n)
        self.reads.append(len(data))
        return data


def test_a_store_file_is_read_a_piece_at_a_time_into_the_value_and_digest_of_the_whole():
    import hashlib

    text = b"\n " + json.dumps(_store(40), indent=2).encode() + b"\n"
    fh = _CountedReads(text)
    value, size, digest = bigjson.load_object_file(fh, True)
    assert value == jsjson.loads(text) and json.dumps(value) == json.dumps(jsjson.loads(text))
    assert size == len(text) and digest == hashlib.sha256(text).digest()
    assert len(fh.reads) > 5 and max(fh.reads) <= bigjson.PIECE_BYTES  # never the whole text at once
    assert bigjson.load_object_file(_CountedReads(text), False)[2] is None


def test_a_compact_store_file_reads_as_one_piece():
    text = json.dumps(_store(30)).encode()
    assert json.dumps(bigjson.load_object_file(_CountedReads(text), False)[0]) == json.dumps(jsjson.loads(text))


@pytest.mark.parametrize("text", [
    json.dumps([_store(5)], indent=2).encode(),
    json.dumps(_store(30), indent=2).encode()[:-5],
    b"\xef\xbb\xbf" + json.dumps(_store(30), indent=2).encode(),
    b"   ",
], ids=["array", "truncated", "bom", "blank"])
def test_a_file_that_is_no_pretty_object_is_left_to_the_whole_read(text):
    assert bigjson.load_object_file(_CountedReads(text), True) is None
