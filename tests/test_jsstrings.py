"""JavaScript string helpers: the root-collation sort key of ASCII text without the collation table."""

from __future__ import annotations

import random

import pytest

from openclaw_cli.js import strings


def test_every_ascii_character_sorts_by_the_collation_tables_own_key():
    table = strings._collator()
    assert [strings.locale_sort_key(chr(i)) for i in range(128)] == [table.sort_key(chr(i)) for i in range(128)]


@pytest.mark.parametrize("seed", range(4))
def test_ascii_strings_get_the_key_the_collation_table_gives(seed):
    rng = random.Random(seed)
    alphabet = [chr(i) for i in range(128)]
    texts = ["".join(rng.choices(alphabet, k=rng.randrange(0, 24))) for _ in range(2000)]
    texts += ["agent:main:main", "Agent-B", "agent_b", "a-b", "a b", "", "\x00", "Zz", "zZ", "10", "9"]
    table = strings._collator()
    assert [strings.locale_sort_key(t) for t in texts] == [table.sort_key(t) for t in texts]


def test_ascii_and_other_text_sort_together_as_the_table_orders_them():
    texts = ["éclair", "eclair", "Eclair", "ECLAIR", "zebra", "Ärger", "arger", "日本", "b-side", "b_side"]
    table = strings._collator()
    assert sorted(texts, key=strings.locale_sort_key) == sorted(texts, key=table.sort_key)
