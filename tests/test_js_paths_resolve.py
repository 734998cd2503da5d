"""path.resolve for one absolute path: normal paths come back as they are, the rest as Node normalises them."""

import posixpath
import random

import pytest

from openclaw_cli.js import paths


def _node_resolve(path: str) -> str:
    out = posixpath.normpath(path)
    return "/" + out.lstrip("/") if out.startswith("//") else out


@pytest.mark.parametrize("path, expected", [
    ("/a/b/c.jsonl", "/a/b/c.jsonl"),
    ("/home/u/.openclaw/agents/main/sessions/x.jsonl", "/home/u/.openclaw/agents/main/sessions/x.jsonl"),
    ("/a//b", "/a/b"),
    ("//a/b", "/a/b"),
    ("/a/./b", "/a/b"),
    ("/a/b/..", "/a"),
    ("/a/../../b", "/b"),
    ("/a/b/", "/a/b"),
    ("/a/b/.", "/a/b"),
    ("/", "/"),
    ("/..x/y.", "/..x/y."),
])
def test_an_absolute_path_resolves_as_node_resolves_it(path, expected):
    assert paths.resolve(path) == expected


def test_a_path_already_normal_is_returned_as_the_same_string_and_not_cached():
    path = "/srv/state/.openclaw/agents/main/sessions/" + "ab" * 20 + ".jsonl"
    assert paths.resolve(path) is path
    assert path not in paths._RESOLVED


def test_random_absolute_paths_resolve_as_node_normalises_them():
    rng = random.Random(7)
    parts = ["a", "b", ".", "..", "", ".x", "..y", "x.", "c.d", "..."]
    for _ in range(20_000):
        path = "/" + "/".join(rng.choice(parts) for _ in range(rng.randint(0, 6)))
        if rng.random() < 0.3:
            path += "/"
        assert paths.resolve(path) == _node_resolve(path), path
