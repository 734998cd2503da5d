"""The model-free extractive summary: content, determinism and size bound."""

from __future__ import annotations

from pathlib import Path

from test_transcript_builder import TranscriptBuilder

from openclaw_cli.compact.planner import plan_compaction
from openclaw_cli.compact.settings import resolve_settings
from openclaw_cli.compact.summarizers.extractive import ExtractiveSummarizer
from openclaw_cli.transcript import load_index


def build(tmp_path: Path) -> Path:
    b = TranscriptBuilder()
    b.user("Set up the build for project Falcon. You must not touch the vendor folder.")
    b.assistant("I decided to use make instead of bazel because the repo already has a Makefile.", total=100)
    b.user("Read config.yaml and fix the port.")
    b.assistant(calls=[("c1", "read", {"path": "config.yaml"})], total=200)
    b.tool_result("c1", "read", "port: 80")
    b.assistant(calls=[("c2", "edit", {"path": "config.yaml", "old": "80", "new": "8080"})], total=300)
    b.tool_result("c2", "edit", "Error: permission denied on config.yaml", error=True)
    b.assistant("Next steps:\n1. Retry the edit with sudo\n2. Run the tests", total=400)
    b.user("Also run the linter.")
    b.assistant(calls=[("c3", "exec", {"command": "ruff ."})], total=500)
    for i in range(6):
        b.user(f"recent question {i} " + "x" * 200)
        b.assistant(f"recent answer {i} " + "y" * 200, total=600 + i)
    return b.write(tmp_path / "t.jsonl")


def test_extractive_summary_contents(tmp_path: Path) -> None:
    plan = plan_compaction(load_index(build(tmp_path)), resolve_settings(None, keep_recent_tokens=400))
    summary = ExtractiveSummarizer().summarize(plan)
    text = summary.summary
    assert "Set up the build for project Falcon" in text
    assert "must not touch the vendor folder" in text  # a constraint
    assert "decided to use make instead of bazel" in text  # a decision
    assert "permission denied on config.yaml" in text  # an error
    assert "Retry the edit with sudo" in text  # next steps from the last answer
    assert "No result recorded for exec" in text or "Unanswered request: Also run the linter." in text
    assert "- [x] Tool calls: edit, exec, read" in text
    assert text.endswith("<modified-files>\nconfig.yaml\n</modified-files>")
    assert summary.details == {"readFiles": [], "modifiedFiles": ["config.yaml"]}
    again = ExtractiveSummarizer().summarize(plan)
    assert again.summary == text  # deterministic


def test_extractive_summary_is_bounded_in_tokens_of_the_tokenizer(tmp_path: Path) -> None:
    from openclaw_cli.context.tokenizer import count, get_encoding

    plan = plan_compaction(load_index(build(tmp_path)), resolve_settings(None, keep_recent_tokens=400))
    encoding = get_encoding("o200k_base")
    full = ExtractiveSummarizer().summarize(plan).summary
    for budget in (300, 150, 60):
        calls = []
        summarizer = ExtractiveSummarizer(max_tokens=budget, count_tokens=lambda t, calls=calls: calls.append(t) or count(encoding, t))
        summary = summarizer.summarize(plan).summary
        assert count(encoding, summary) <= budget < count(encoding, full)
        assert calls  # over `budget` bytes, so the tokenizer was asked
        assert summary.endswith("</modified-files>")  # the file lists survive every cut
    assert "[Compaction summary truncated to fit budget]" in summary  # 60 tokens: cut
    small = ExtractiveSummarizer(count_tokens=lambda t: 1 / 0).summarize(plan)
    assert small.summary == full  # under 12,000 bytes the tokenizer is not even loaded


def test_on_the_real_fixture_commands_are_no_goals_and_injected_replies_no_answers() -> None:
    """The fixture session ends with `/context` commands answered by the Gateway itself."""
    fixture = Path(__file__).parent / "data" / "real-2026.7.1" / "state" / "agents" / "main" / "sessions"
    plan = plan_compaction(load_index(fixture / "eb01388d-e079-474d-961b-1e1df466b667.jsonl"),
                           resolve_settings(None, keep_recent_tokens=50))
    text = ExtractiveSummarizer().summarize(plan).summary
    assert "- /context" not in text and "Context breakdown" not in text
    assert "- Last request: Are you still there after the compaction?" in text
    assert "- Last answer: fake-llm reply: I received “Are you still there after the compaction?”" in text
    assert "## Original Request\nThe command /context json\n" in text  # the split turn's start
    assert "- Exercise the OpenClaw Gateway against a deterministic fake model" in text  # the earlier summary
