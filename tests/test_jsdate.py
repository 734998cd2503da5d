"""`Date.parse` of ISO strings matches Node's in several time zones."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from openclaw_cli.js.dates import parse_iso_ms

SAMPLES = [
    "2026-02-23T12:34:56.000Z", "2026-02-30T00:00:00Z", "2026-02-28T24:00:00Z", "2026-02-28T24:00:01Z",
    "2026-13-01T00:00:00Z", "2026-02-00T00:00:00Z", "2026-02-32T00:00:00Z", "0000-01-01T00:00:00Z",
    "+012026-01-01T00:00:00Z", "-000001-01-01T00:00:00Z", "-000000-01-01T00:00:00Z", "2026", "2026-05",
    "2026-05-06", "2026-05-06T07:08", "2026-05-06T07:08:09", "2026-05-06T07:08:09.1234567Z",
    "2026-05-06T07:08:09.5+02:30", "2026-05-06T07:08:09-11:00", " 2026-05-06T07:08:09Z",
    "2026-05-06T07:08:09z", "2026-05-06 07:08:09Z", "2026-05-06t07:08:09Z", "2026-05-06 07:08",
    "1969-12-31T23:59:59.999Z", "275760-09-13T00:00:00Z", "+275760-09-13T00:00:00.001Z",
    "2026-11-30T10-34-46.528Z", "not a date", "",
]


@pytest.mark.parametrize("tz", ["UTC", "America/New_York", "Asia/Kolkata"])
def test_matches_node(reference, tz):
    node = reference.reference_node_bin_dir() / "node"
    script = "for (const s of JSON.parse(process.argv[1])) console.log(String(Date.parse(s)))"
    env = dict(os.environ, TZ=tz)
    out = subprocess.run([str(node), "-e", script, json.dumps(SAMPLES)], env=env, capture_output=True,
                         text=True, check=True).stdout.split("\n")
    ours = subprocess.run(
        [sys.executable, "-c", "import json,sys; from openclaw_cli.js.dates import parse_iso_ms as p; "
                          "print('\\n'.join('NaN' if p(s) is None else str(p(s)) for s in json.loads(sys.argv[1])))",
         json.dumps(SAMPLES)], env=env, capture_output=True, text=True, check=True).stdout.split("\n")
    assert ours[:len(SAMPLES)] == out[:len(SAMPLES)]


def test_non_strings_are_invalid():
    assert parse_iso_ms(None) is None and parse_iso_ms(17) is None
