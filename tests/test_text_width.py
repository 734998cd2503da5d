"""Display widths: every cell measured as OpenClaw 2026.9.6's tables measure it (its own `visibleWidth`)."""

from __future__ import annotations

import json
import random
import subprocess
import unicodedata

import pytest
from helpers import refbin

from openclaw_cli.ui import fit
from openclaw_cli.ui.width import clusters, text_width

NINE_SIX = "2026.9.6"
MEASURE = """
import { readFileSync } from "node:fs";
const mod = await import(process.argv[1]);
const items = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(items.map((s) => mod.c(s))));
"""
NAMED = [
    "agent:main:main", "👨\u200d👩\u200d👧", "❤️", "❤", "🇫🇷", "🇫", "1\u20e3", "1\ufe0f\u20e3", "👍🏽", "漢字",
    "e\u0301", "\u1100\u1161\u11a8", "ｶﾞ", "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", "a\tb",
    "\u200b", "☺", "☺️", "👩\u200d💻", "🧑🏽\u200d🚀", "가", "अनुच्छेद", "\x1b[31mred\x1b[0m", "Ａ", "©", "©️",
    "⌚", "↔️", "agent:main:telegram:group:👨\u200d👩\u200d👧\u200d👦-family",
]
RANGES = [(0x20, 0x7F), (0x300, 0x370), (0x900, 0x980), (0x1100, 0x1200), (0x2600, 0x27C0), (0x3000, 0x3100),
          (0xFF00, 0xFFF0), (0x1F1E6, 0x1F200), (0x1F300, 0x1F700), (0x1F900, 0x1FA00)]
JOINERS = ["\u200d", "\ufe0f", "\ufe0e", "\u20e3", "\U0001F3FB", "\U0001F3FD"]


def _samples(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    # characters every Unicode version involved knows (those added lately differ between runtimes)
    pool = [chr(c) for lo, hi in RANGES for c in range(lo, hi) if unicodedata.category(chr(c)) != "Cn"]
    pool += JOINERS * 40
    return NAMED + ["".join(rng.choice(pool) for _ in range(rng.randint(1, 8))) for _ in range(count)]


def _reference_widths(texts: list[str]) -> list[int]:
    if not refbin.reference_available(NINE_SIX):
        pytest.fail(refbin.missing_message(NINE_SIX))
    module = next(p for p in sorted(refbin.reference_dist(NINE_SIX).glob("ansi-*.mjs"))
                  if "function visibleWidth" in p.read_text(encoding="utf-8"))
    node = refbin.reference_node_bin_dir() / "node"
    out = subprocess.run([str(node), "--input-type=module", "-e", MEASURE, str(module)], input=json.dumps(texts),
                         capture_output=True, text=True, check=True, timeout=60).stdout
    return json.loads(out)


def test_every_width_equals_what_openclaw_2026_9_6_measures_for_the_same_text():
    texts = _samples(4000, seed=7)
    expected = _reference_widths(texts)
    differ = [(t, e, text_width(t)) for t, e in zip(texts, expected) if text_width(t) != e]
    assert differ == []


def test_a_joined_family_emoji_is_one_cluster_two_columns_wide():
    family = "👨\u200d👩\u200d👧"
    assert clusters(family) == [family]
    assert text_width(family) == 2
    assert text_width("❤️") == 2 and text_width("❤") == 1


def test_a_key_with_a_joined_emoji_is_cut_between_clusters_never_inside_one():
    key = "agent:main:" + "👨\u200d👩\u200d👧" * 10 + ":end"
    cut = fit.middle_cut(key, 25)
    assert fit.width_of(cut) <= 25
    assert cut.startswith("agent:main:") and cut.endswith(":end")
    assert all(piece in ("👨\u200d👩\u200d👧", "…") or piece.isascii() for piece in clusters(cut))
