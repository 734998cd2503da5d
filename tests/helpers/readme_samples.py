"""README.md's console samples: each marked block re-run on a state built from the fixture corpus and compared.

A sample is a ```console block preceded by `<!-- sample: state=NAME [pty=COLUMNS] [head=N]
[clock=ISO-TIME] -->`. Its `$ openclaw ...` lines are run in order on one fresh copy of the state;
the block is the command lines each followed by its output (stdout, then stderr), with only what must vary
normalised: the scratch home is `/home/me` (a scratch path of the same length, so a view cut to
the window is cut alike), a timestamp in a backup name is fixed, colour codes are dropped. `head=N` keeps
the first N lines of each output, then `…`. A block marked `<!-- sample: unchecked (REASON) -->`
is left as it is (it needs a running Gateway). A ```json block marked `<!-- sample: state=NAME
command="openclaw ..." -->` is that one command's output alone.
"""

from __future__ import annotations

import json
import re
import secrets
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from helpers import clock, health
from helpers.cleanup import DAY_MS, write_store
from helpers.cli import run, run_in_pty
from helpers.refbin import clock_env, faketime_lib, run_ours
from helpers.sqlite_state import copy_real_96

README = Path(__file__).resolve().parents[2] / "README.md"
SHOWN_HOME = "/home/me"
MARKER = re.compile(r"^<!-- sample: (?P<spec>.*?) -->$")
FENCES = ("```console", "```json")
STAMP = re.compile(r"\.(bak|rejected)\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z")
NO_GATEWAY = {"OPENCLAW_GATEWAY_PORT": "1"}
SGR = re.compile(r"\x1b\[[0-9;]*m")
FIXED_STAMP = "2026-12-02T06-00-00.000Z"


@dataclass
class Sample:
    """One marked block: where it is in README.md, its options and its text."""

    start: int  # index of the first line inside the fence
    end: int  # index of the closing fence
    options: dict[str, str]
    text: str
    console: bool = True

    @property
    def name(self) -> str:
        first = next(iter(self.commands()), "$ ?")
        return f"{self.options.get('state', 'unchecked')}: {first[2:]}"

    @property
    def checked(self) -> bool:
        return "state" in self.options

    def commands(self) -> list[str]:
        """The `$ openclaw ...` lines, as written (a JSON sample's one `command=`)."""
        if "command" in self.options:
            return [f"$ {self.options['command']}"]
        return [line for line in self.text.splitlines() if line.startswith("$ openclaw ")]


def samples(readme: str) -> list[Sample]:
    """Every ```console and ```json block of the README, with the options of the marker before it (if any)."""
    lines = readme.split("\n")
    found = []
    for index, line in enumerate(lines):
        if line not in FENCES:
            continue
        end = lines.index("```", index + 1)
        marker = MARKER.match(lines[index - 1]) if index else None
        options = _options(marker.group("spec")) if marker else {}
        found.append(Sample(index + 1, end, options, "\n".join(lines[index + 1:end]), line == FENCES[0]))
    return found


def _options(spec: str) -> dict[str, str]:
    if spec.startswith("unchecked"):
        return {"unchecked": spec}
    return dict(part.split("=", 1) for part in shlex.split(spec))


def unmarked(readme: str) -> list[Sample]:
    """The console blocks with no marker (a JSON block may be an illustration of a shape)."""
    return [sample for sample in samples(readme) if sample.console and not sample.options]


# --- states ---------------------------------------------------------------------------------


def _corpus(home: Path) -> Path:
    """The real 2026.7.1 corpus, its store moved so that the newest entry was written 3 hours ago,
    the state folder and config private (as `openclaw doctor --fix` leaves them, whatever the
    checkout's modes)."""
    folder = health.corpus_home(home)
    (home / ".openclaw").chmod(0o700)
    (home / ".openclaw" / "openclaw.json").chmod(0o600)
    _edit_store(folder, lambda store: _shift_all(store, clock.now_ms() - 3 * 3_600_000 - clock.recorded_at(store)))
    return folder


def _shift_all(store: dict, delta_ms: int) -> None:
    for entry in store.values():
        clock.shift_entry(entry, delta_ms)


def _edit_store(folder: Path, edit: Callable[[dict], None]) -> None:
    path = folder / "sessions.json"
    store = json.loads(path.read_text())
    edit(store)
    path.write_text(json.dumps(store, indent=2))


def _stale(home: Path) -> None:
    """The corpus with fixture-b last used 41 days ago (past the default pruneAfter of 30 days)."""
    folder = _corpus(home)
    _edit_store(folder, lambda store: clock.shift_entry(store["agent:main:fixture-b"], -41 * 86_400_000))


def _legacy(home: Path) -> None:
    """The corpus with a key OpenClaw no longer reads, `session.maintenance.rotateBytes`."""
    _corpus(home)
    config = home / ".openclaw" / "openclaw.json"
    config.write_text(config.read_text().replace("  agents: {", '  session: { maintenance: { rotateBytes: "10mb" } },\n  agents: {', 1))


def _damaged(home: Path) -> None:
    """The corpus with fixture-b's first toolResult lost (its child relinked to the toolCall), a line
    that is not JSON, and an orphan transcript whose trajectory sidecar names its key."""
    folder = _corpus(home)
    transcript = folder / f"{health.CORPUS_IDS['agent:main:fixture-b']}.jsonl"
    lines = transcript.read_text().splitlines(keepends=True)
    result = json.loads(lines[9])
    child = json.loads(lines[10])
    child["parentId"] = result["parentId"]
    lines[9:11] = [json.dumps(child, separators=(",", ":")) + "\n"]
    lines.insert(12, '{"type":"message","id":"cut-off",\n')
    transcript.write_text("".join(lines))
    health.write_lines(folder / f"{health.SID}.jsonl", health.clean_entries())
    health.write_trajectory(folder, health.SID, "agent:main:telegram:direct:4711")


def _generated_20000(home: Path) -> None:
    """20,000 entries `agent:main:explicit:job-NNNNN` (label `batch N`), the first written an hour
    ago: a third 40 days older (stale), a third 20 days older, the rest over the cap of 500."""
    now = clock.now_ms() - 3_600_000
    write_store(home, {f"agent:main:explicit:job-{i:05d}": {
        "sessionId": f"s{i}", "updatedAt": now - (i % 3) * 20 * DAY_MS - i, "label": f"batch {i}"}
        for i in range(20_000)})


def _sqlite(home: Path) -> None:
    """The real 2026.9.6 state (its `main` and `work` agents keep their sessions in SQLite); its
    databases cannot be moved in time, so a sample of it that shows ages sets `clock=`."""
    copy_real_96(home)


STATES: dict[str, Callable[[Path], object]] = {
    "corpus-2026.7.1": _corpus,
    "corpus-2026.7.1-stale": _stale,
    "corpus-2026.7.1-damaged": _damaged,
    "corpus-2026.7.1-legacy": _legacy,
    "generated-20000": _generated_20000,
    "real-2026.9.6": _sqlite,
}


# --- runs -----------------------------------------------------------------------------------


def normalise(text: str, home: Path) -> str:
    """The scratch home shown as /home/me, backup time stamps fixed, no colour codes (`sessions disk`
    draws bold headers at a terminal even with NO_COLOR), no trailing blanks."""
    text = SGR.sub("", text)
    text = STAMP.sub(lambda m: f".{m.group(1)}.{FIXED_STAMP}", text.replace(str(home), SHOWN_HOME))
    return "\n".join(line.rstrip() for line in text.split("\n"))


def _scratch_home() -> Path:
    """An empty folder whose path is as long as /home/me, so that a view cut to the terminal's
    width is cut exactly where it is for /home/me."""
    while True:
        path = Path("/tmp") / secrets.token_hex(2)[:3]
        try:
            path.mkdir()
            return path
        except FileExistsError:
            continue


def _faketime(moment: str) -> dict[str, str]:
    """libfaketime's settings for a child process whose clock starts at `moment` (UTC)."""
    return {"FAKETIME": f"@{moment.replace('T', ' ')}", "LD_PRELOAD": faketime_lib(), "TZ": "UTC"}


def _shown(output: str, head: int | None) -> list[str]:
    lines = output.splitlines()
    if head is not None and len(lines) > head:
        return [*lines[:head], "…"]
    return lines


def _output(args: list[str], home: Path, options: dict[str, str]) -> str:
    """What one run prints: at a pseudo-terminal of `pty` columns, or piped (in this process, or in
    a child whose clock is `clock` when the sample fixes one); stdout, then stderr. No Gateway is
    reached (a port nothing listens on), whatever runs on this machine."""
    # the clock the sample fixes, else the one this process runs under (the suite's own, if moved)
    env = {**NO_GATEWAY, **(_faketime(options["clock"]) if "clock" in options else clock_env())}
    if "pty" in options:
        return run_in_pty(args, home, env={"COLUMNS": options["pty"], "TERM": "xterm", "NO_COLOR": "1",
                                           "LANG": "C.UTF-8", "TZ": "UTC", **env})
    result = run_ours(args, home, env=env) if "clock" in options else run(args, home=home, env=env)
    return result.stdout + result.stderr


def render(sample: Sample) -> str:
    """The block as the tool prints it today: each command line, then its output."""
    home = _scratch_home()
    try:
        STATES[sample.options["state"]](home)
        head = int(sample.options["head"]) if "head" in sample.options else None
        shown: list[str] = []
        for command in sample.commands():
            args = [arg.replace(SHOWN_HOME, str(home)) for arg in shlex.split(command)[2:]]
            output = _shown(normalise(_output(args, home, sample.options), home), head)
            shown += [command, *output] if sample.console else output
        return "\n".join(shown)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def rewrite(readme: str) -> str:
    """The README with every checked sample replaced by what the tool prints today."""
    lines = readme.split("\n")
    for sample in reversed(samples(readme)):
        if sample.checked:
            lines[sample.start:sample.end] = render(sample).split("\n")
    return "\n".join(lines)
