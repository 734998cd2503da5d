"""README.md's console samples are the tool's real output on states built from the fixture corpus."""

from __future__ import annotations

import pytest
from helpers import readme_samples

README = readme_samples.README.read_text()
CHECKED = [sample for sample in readme_samples.samples(README) if sample.checked]


def test_every_console_block_is_marked_as_a_checked_sample_or_says_why_it_is_not():
    assert readme_samples.samples(README), "README.md has no console blocks"
    assert [sample.text.splitlines()[0] for sample in readme_samples.unmarked(README)] == []


def test_most_samples_are_checked_and_every_checked_one_names_a_known_state_and_runs_commands():
    assert len(CHECKED) >= 12
    for sample in readme_samples.samples(README):
        if sample.options and "unchecked" not in sample.options:
            assert set(sample.options) <= {"state", "pty", "head", "clock", "command"}, sample.options
            assert sample.checked, sample.options
    for sample in CHECKED:
        assert sample.options["state"] in readme_samples.STATES, sample.name
        assert sample.commands(), sample.name


@pytest.mark.parametrize("sample", CHECKED, ids=[sample.name for sample in CHECKED])
def test_the_sample_is_what_the_command_prints_today(sample):
    assert sample.text == readme_samples.render(sample), (
        "README sample drifted; `python scripts/readme-samples.py --write` rewrites it")


def test_a_drifted_sample_is_caught_and_rewritten():
    sample = next(sample for sample in CHECKED if sample.commands() == ["$ openclaw sessions"])
    drifted = README.replace(sample.text, sample.text.replace("3h ago", "4h ago"), 1)
    assert drifted != README
    assert readme_samples.rewrite(drifted) == README
