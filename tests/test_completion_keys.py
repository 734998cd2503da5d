"""Shell completion of session keys: `completion session-keys` reads the store, and bash, zsh and fish complete from it."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.cli import run
from helpers.health import CORPUS_IDS, corpus_home, snapshot
from helpers.sqlite_state import copy_real_96

from openclaw_cli.cli.docsgen.generate import COMPLETION_FILES
from openclaw_cli.cli.docsgen.model import load_cli

ROOT = Path(__file__).resolve().parent.parent
BASH, ZSH, FISH = (ROOT / COMPLETION_FILES[shell] for shell in ("bash", "zsh", "fish"))
CORPUS_KEYS = sorted(CORPUS_IDS)
WORK_KEYS = ["agent:work:basalt-notes", "agent:work:main", "agent:work:raven-lumen",
             "agent:work:slack:channel:c8845:thread:1764630312.194476", "agent:work:telegram:group:232808"]


@pytest.fixture
def corpus(tmp_path) -> Path:
    """A HOME holding the real 2026.7.1 corpus (a file-era sessions.json of three sessions)."""
    home = tmp_path / "home"
    corpus_home(home)
    return home


@pytest.fixture
def sqlite_home(tmp_path) -> Path:
    """A HOME holding the real 2026.9.6 state (agents main and work keep their sessions in SQLite)."""
    home = tmp_path / "home96"
    copy_real_96(home)
    return home


def keys(home: Path, *args: str) -> list[str]:
    result = run(["completion", "session-keys", *args], home=home)
    assert result.returncode == 0 and result.stderr == ""
    return result.stdout.splitlines()


def test_session_keys_prints_the_keys_of_the_file_era_store_one_a_line(corpus):
    assert sorted(keys(corpus)) == CORPUS_KEYS


def test_session_keys_reads_a_sqlite_era_agent_s_database_and_leaves_every_file_as_it_was(sqlite_home):
    before = snapshot(sqlite_home)
    assert keys(sqlite_home, "--agent", "work") == WORK_KEYS
    main = keys(sqlite_home)
    assert "agent:main:main" in main and all(key.startswith("agent:main:") for key in main)
    assert snapshot(sqlite_home) == before


def test_session_keys_prints_nothing_and_exits_0_on_any_problem(tmp_path, corpus):
    assert keys(tmp_path / "empty") == []
    assert keys(corpus, "--agent", "nobody") == []
    (corpus / ".openclaw" / "agents" / "main" / "sessions" / "sessions.json").write_text("{not json")
    assert keys(corpus) == []


def test_session_keys_is_hidden_from_help(corpus):
    assert "session-keys" not in run(["completion", "--help"], home=corpus).stdout


def test_every_key_argument_and_key_option_completes_session_keys():
    cli = load_cli()
    for path in (("compact",), ("sessions", "compact"), ("sessions", "repair"), ("sessions", "verify"),
                 ("sessions", "export")):
        argument = cli.find(*path).arguments[0]
        assert argument.values is not None and argument.values.kind == "session-key", path
    for path, name in ((("context", "list"), "--session"), (("context", "map"), "--session"),
                       (("sessions", "cleanup"), "--active-key")):
        option = next(o for o in cli.find(*path).options if name in o.longs)
        assert option.values is not None and option.values.kind == "session-key", (path, name)


def _launcher(tmp_path: Path) -> Path:
    """A folder with an `openclaw` that runs this checkout."""
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    launcher = bindir / "openclaw"
    launcher.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m openclaw_cli "$@"\n')
    launcher.chmod(0o755)
    return bindir


def bash_complete(home: Path, bindir: Path, line: str) -> list[str]:
    """COMPREPLY for `line`, split into words at COMP_WORDBREAKS as bash splits them (":" and "=" apart)."""
    words: list[str] = []
    for token in line.split(" "):
        words.extend(_split_breaks(token))
    program = "\n".join([
        f"source {shlex.quote(str(BASH))}",
        f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)})",
        f"COMP_CWORD={len(words) - 1}",
        f"COMP_LINE={shlex.quote(line)}",
        f"COMP_POINT={len(line)}",
        "COMP_TYPE=9",
        "_openclaw",
        'printf "%s\\n" "${COMPREPLY[@]}"',
    ])
    env = {"HOME": str(home), "PATH": f"{bindir}:/usr/bin:/bin", "LANG": "C.UTF-8"}
    proc = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True,
                          env=env, cwd=home, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [c for c in proc.stdout.split("\n") if c]


def _split_breaks(token: str) -> list[str]:
    out, current = [], ""
    for char in token:
        if char in ":=":
            if current:
                out.append(current)
            out.append(char)
            current = ""
        else:
            current += char
    if current or not out:
        out.append(current)
    return out


def test_bash_completes_a_key_argument_from_the_store(corpus, tmp_path):
    bindir = _launcher(tmp_path)
    assert sorted(bash_complete(corpus, bindir, "openclaw compact ")) == CORPUS_KEYS
    # bash splits the word at ":": the replies are what follows the last ":" already typed
    assert bash_complete(corpus, bindir, "openclaw compact agent:main:fix") == ["fixture-a", "fixture-b"]
    assert bash_complete(corpus, bindir, "openclaw sessions repair agent:") == ["main:main", "main:fixture-a",
                                                                               "main:fixture-b"]
    assert bash_complete(corpus, bindir, "openclaw sessions verify agent:main:m") == ["main"]
    # one key is enough: after it come options only
    assert bash_complete(corpus, bindir, "openclaw compact agent:main:main agent:m") == []


def test_bash_completes_key_options_and_honours_agent(sqlite_home, tmp_path):
    bindir = _launcher(tmp_path)
    assert bash_complete(sqlite_home, bindir, "openclaw context list --session agent:main:ma") == ["main"]
    assert bash_complete(sqlite_home, bindir, "openclaw sessions cleanup --active-key agent:main:s") == [
        "scratchpad", "slack:channel:c9525"]
    assert bash_complete(sqlite_home, bindir, "openclaw sessions export --agent work agent:work:r") == ["raven-lumen"]
    assert bash_complete(sqlite_home, bindir, "openclaw context map --agent=work --session=agent:work:b") == [
        "basalt-notes"]


def zsh_complete(home: Path, bindir: Path, line: str) -> list[str]:
    """The matches an interactive zsh (in a pseudo-terminal, with compinit and the script loaded)
    adds when Tab is pressed after `line`: compadd is wrapped to record what it adds."""
    out = home / "zsh-matches.txt"
    out.unlink(missing_ok=True)
    setup = f"PS1=''; autoload -Uz compinit && compinit -u -D -d {shlex.quote(str(home / 'zcompdump'))}; " \
            f"source {shlex.quote(str(ZSH))}"
    recorder = ('compadd() { local -a __m; builtin compadd -O __m "$@"; '
                f'print -rl -- $__m >> {shlex.quote(str(out))}; builtin compadd "$@" }}')
    script = "\n".join([
        "zmodload zsh/zpty",
        "zpty z zsh -f -i",
        f"zpty -w z {shlex.quote(setup)}",
        f"zpty -w z {shlex.quote(recorder)}",
        "zpty -w z 'print READY'",
        "zpty -r z line '*READY*'",
        f"zpty -n -w z {shlex.quote(line)}$'\\t'",
        f"for i in {{1..150}}; do [[ -s {shlex.quote(str(out))} ]] && break; sleep 0.2; done",
        "sleep 0.5",
        "zpty -d z",
    ])
    proc = subprocess.run(["zsh", "-f", "-c", script], capture_output=True, text=True, timeout=90,
                          env={"HOME": str(home), "PATH": f"{bindir}:/usr/bin:/bin", "LANG": "C.UTF-8",
                               "TERM": "dumb"})
    assert proc.returncode == 0, proc.stderr
    return out.read_text().splitlines() if out.exists() else []


def test_zsh_completes_keys_from_the_store_for_the_line_s_agent(corpus, sqlite_home, tmp_path):
    bindir = _launcher(tmp_path)
    assert zsh_complete(corpus, bindir, "openclaw compact agent:main:fix") == ["agent:main:fixture-a",
                                                                             "agent:main:fixture-b"]
    assert zsh_complete(corpus, bindir, "openclaw sessions cleanup --active-key agent:main:m") == ["agent:main:main"]
    # an option of the sub-command before the key (`sessions` has a --json of its own)
    assert zsh_complete(corpus, bindir, "openclaw sessions repair --json agent:main:ma") == ["agent:main:main"]
    assert zsh_complete(sqlite_home, bindir, "openclaw sessions export --agent work agent:work:r") == [
        "agent:work:raven-lumen"]
    assert zsh_complete(sqlite_home, bindir, "openclaw context list --agent=work --session agent:work:b") == [
        "agent:work:basalt-notes"]


def fish_complete(home: Path, bindir: Path, line: str) -> list[str]:
    script = f"source {shlex.quote(str(FISH))}; complete --do-complete {shlex.quote(line)}"
    proc = subprocess.run(["fish", "--no-config", "-c", script], capture_output=True, text=True, timeout=60,
                          env={"HOME": str(home), "PATH": f"{bindir}:/usr/bin:/bin", "LANG": "C.UTF-8"})
    assert proc.returncode == 0, proc.stderr
    return [entry.split("\t")[0] for entry in proc.stdout.splitlines()]


def test_fish_completes_keys_from_the_store(corpus, sqlite_home, tmp_path):
    bindir = _launcher(tmp_path)
    assert fish_complete(corpus, bindir, "openclaw compact agent:main:fix") == ["agent:main:fixture-a",
                                                                              "agent:main:fixture-b"]
    assert fish_complete(corpus, bindir, "openclaw sessions cleanup --active-key agent:main:m") == ["agent:main:main"]
    assert fish_complete(sqlite_home, bindir, "openclaw context detail --agent work --session agent:work:r") == [
        "agent:work:raven-lumen"]
