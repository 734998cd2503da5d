"""completions/ and man/ match the CLI definition, and the scripts and pages work in their shells and man."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_cli.cli.docsgen import values
from openclaw_cli.cli.docsgen.common import one_line
from openclaw_cli.cli.docsgen.generate import COMPLETION_FILES, MAN_DIR, generated_files
from openclaw_cli.cli.docsgen.man import has_page, roff_escape
from openclaw_cli.cli.docsgen.model import Command, load_cli

ROOT = Path(__file__).resolve().parent.parent
REGENERATE = "run `python scripts/gen-shell-files.py` and commit the result"

CLI = load_cli()
COMMANDS = list(CLI.walk())
BASH = ROOT / COMPLETION_FILES["bash"]
ZSH = ROOT / COMPLETION_FILES["zsh"]
FISH = ROOT / COMPLETION_FILES["fish"]


def _id(command: Command) -> str:
    return command.command_line


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# --- up to date -----------------------------------------------------------------------------------

def test_generated_files_match_the_cli():
    expected = generated_files(CLI)
    differing = [rel for rel, text in expected.items()
                 if not (ROOT / rel).exists() or _read(ROOT / rel) != text]
    stale = sorted(f"{MAN_DIR}/{p.name}" for p in (ROOT / MAN_DIR).glob("*.1")
                   if f"{MAN_DIR}/{p.name}" not in expected)
    assert not differing and not stale, (
        f"completions/ or man/ no longer match the CLI definition ({', '.join(differing + stale)}): {REGENERATE}")


@pytest.mark.parametrize("shell", sorted(COMPLETION_FILES))
def test_completion_command_prints_the_committed_script(shell):
    proc = subprocess.run([sys.executable, "-m", "openclaw_cli", "completion", shell],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == _read(ROOT / COMPLETION_FILES[shell]), REGENERATE


def test_value_table_names_existing_options():
    names = {n for c in COMMANDS for o in c.options for n in o.names}
    assert set(values.BY_OPTION) <= names


# --- every command and option, in every file ----------------------------------------------------

def _bash_spec() -> dict[str, dict[str, set[str]]]:
    """`_openclaw_spec` arms: path -> {"cmds": ..., "opts": ..., "vals": ...}."""
    arms = re.findall(r"^ {8}'([^']*)'\)\n((?: {12}_oc_\w+=.*\n)+)", _read(BASH), re.MULTILINE)
    spec = {}
    for path, body in arms:
        fields = dict(re.findall(r"_oc_(\w+)='([^']*)'", body))
        spec[path] = {k: set(v.split()) for k, v in fields.items()}
    return spec


def _zsh_function(command: Command) -> str:
    name = "_openclaw_" + ("_".join(p.replace("-", "_") for p in command.path) or "root")
    match = re.search(rf"^{name}\(\) {{\n(.*?)^}}$", _read(ZSH), re.MULTILINE | re.DOTALL)
    assert match, f"no {name} in {ZSH.name}: {REGENERATE}"
    return match.group(1)


def _fish_lines(command: Command) -> list[str]:
    condition = f"'__openclaw_at {' '.join(command.path)}'".replace(" '", "'")
    return [line for line in _read(FISH).splitlines()
            if line.startswith("complete -c openclaw ") and f"-n {condition} " in line]


def _zsh_bracket(text: str) -> str:
    return one_line(text).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]").replace("'", "'\\''")


def _fish_quote(text: str) -> str:
    return one_line(text).replace("\\", "\\\\").replace("'", "\\'")


@pytest.mark.parametrize("command", COMMANDS, ids=_id)
def test_bash_script_has_every_command_and_option(command):
    spec = _bash_spec().get(" ".join(command.path))
    assert spec is not None, REGENERATE
    assert spec["cmds"] == {s.name for s in command.subcommands}
    assert spec["opts"] == {n for o in command.options for n in o.names}
    assert spec["vals"] == {n for o in command.options if o.takes_value for n in o.names}
    text = _read(BASH)
    for option in command.options:
        assert one_line(option.help).replace("'", "'\\''") in text, option.key


@pytest.mark.parametrize("command", COMMANDS, ids=_id)
def test_zsh_script_has_every_command_and_option(command):
    body = _zsh_function(command)
    for sub in command.subcommands:
        assert f"'{sub.name}:" in body and f"{sub.name}) _openclaw_" in body, sub.name
    for option in command.options:
        for name in option.names:
            assert re.search(rf"[{{,'*]{re.escape(name)}[=+]?[,}}\[']", body), name
        assert f"[{_zsh_bracket(option.help)}]" in body, option.key


@pytest.mark.parametrize("command", COMMANDS, ids=_id)
def test_fish_script_has_every_command_and_option(command):
    lines = _fish_lines(command)
    for sub in command.subcommands:
        assert any(f" -a {sub.name} -d " in line for line in lines), sub.name
    for option in command.options:
        flags = " ".join([*(f"-s {n[1:]}" for n in option.shorts), *(f"-l {n[2:]}" for n in option.longs)])
        matching = [line for line in lines if f" {flags} " in line]
        assert len(matching) == 1, option.key
        assert f"-d '{_fish_quote(option.help)}'" in matching[0], option.key


@pytest.mark.parametrize("command", COMMANDS, ids=_id)
def test_man_pages_have_every_command_and_option(command):
    if not has_page(command):  # documented on its group's page
        page = _read(ROOT / MAN_DIR / f"{CLI.find(*command.path[:-1]).page}.1")
        assert f"\\fB{roff_escape(command.command_line)}\\fR" in page
        return
    page = _read(ROOT / MAN_DIR / f"{command.page}.1")
    for sub in command.subcommands:
        assert f"\\fB{roff_escape(sub.command_line)}\\fR" in page, sub.name
    for option in command.options:
        for name in option.names:
            assert f"\\fB{roff_escape(name)}\\fR" in page, name
        first_words = " ".join(option.help.split()[:4])
        assert roff_escape(first_words) in page, option.key
    for arg in command.arguments:
        assert f"\\fI{arg.metavar}\\fR" in page


def test_every_subcommand_page_is_listed_on_the_root_page():
    root = _read(ROOT / MAN_DIR / "openclaw.1")
    for command in COMMANDS[1:]:
        if has_page(command):
            assert f"\\fB{roff_escape(command.page)}\\fR(1)" in root, command.page


# --- bash: syntax, and the completion function on partial command lines --------------------------

def test_bash_script_parses():
    proc = subprocess.run(["bash", "-n", str(BASH)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.fixture
def bash_complete(tmp_path):
    """Run `_openclaw` for a command line (completing its last word) and return the candidates."""
    home = tmp_path / "home"
    (home / ".openclaw").mkdir(parents=True)
    (home / ".openclaw" / "openclaw.json").write_text(
        '{agents: {list: [{id: "main", default: true}, {id: "Work"}, {id: "research"}]}}\n')
    (home / ".openclaw-lab").mkdir()
    bindir = tmp_path / "bin"
    bindir.mkdir()
    launcher = bindir / "openclaw"
    launcher.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m openclaw_cli "$@"\n')
    launcher.chmod(0o755)
    (tmp_path / "notes.md").write_text("x\n")

    def complete(line: str, comp_type: int = 9, described: bool = False) -> list[str]:
        words = line.split(" ")
        program = "\n".join([
            f"source {shlex.quote(str(BASH))}",
            f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)})",
            f"COMP_CWORD={len(words) - 1}",
            f"COMP_LINE={shlex.quote(line)}",
            f"COMP_POINT={len(line)}",
            f"COMP_TYPE={comp_type}",
            "COLUMNS=200",
            "_openclaw",
            'printf "%s\\n" "${COMPREPLY[@]}"',
        ])
        env = {"HOME": str(home), "PATH": f"{bindir}:/usr/bin:/bin", "LANG": "C.UTF-8"}
        proc = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=60)
        assert proc.returncode == 0, proc.stderr
        found = [c for c in proc.stdout.split("\n") if c]
        return found if described else [c.split("  (", 1)[0].rstrip() for c in found]

    return complete


def test_bash_completes_commands_and_options(bash_complete):
    assert bash_complete("openclaw ses") == ["sessions"]
    assert bash_complete("openclaw sessions cleanup --dr") == ["--dry-run"]
    assert bash_complete("openclaw sessions ") == ["list", "cleanup", "disk", "export", "verify", "repair", "recover",
                                                   "compact"]
    assert bash_complete("openclaw context ") == ["list", "detail", "json", "map"]
    assert bash_complete("openclaw completion ") == ["bash", "zsh", "fish"]
    assert bash_complete("openclaw --no-color doctor --lint --sev") == ["--severity-min"]
    assert set(bash_complete("openclaw doctor ")) == {n for o in CLI.find("doctor").options for n in o.names}
    # a session key split by bash at ":" still counts as one argument
    assert bash_complete("openclaw compact agent : main : main --dry") == ["--dry-run"]
    assert bash_complete("openclaw compact ") == []


def test_bash_shows_descriptions_only_when_there_is_a_choice(bash_complete):
    listed = bash_complete("openclaw sessions cleanup --fix", comp_type=63, described=True)
    assert [c.split()[0] for c in listed] == ["--fix-dm-scope", "--fix-missing"]
    assert listed[1].startswith("--fix-missing   (Remove store entries whose transcript files are missing")
    assert bash_complete("openclaw sessions cleanup --fix-m", comp_type=63, described=True) == ["--fix-missing"]
    # menu completion cycles through the bare words
    assert bash_complete("openclaw sessions cleanup --fix", comp_type=37, described=True) == [
        "--fix-dm-scope", "--fix-missing"]


def test_bash_completes_option_values(bash_complete):
    assert bash_complete("openclaw context list --tokenizer ") == ["o200k_base", "cl100k_base", "estimate"]
    assert bash_complete("openclaw context detail --tokenizer = cl") == ["cl100k_base"]
    assert bash_complete("openclaw context detail --tokenizer=o") == ["--tokenizer=o200k_base"]
    assert bash_complete("openclaw compact main --summarizer ") == ["extractive", "openai"]
    assert bash_complete("openclaw doctor --lint --severity-min w") == ["warning"]
    assert bash_complete("openclaw doctor --lint --only core/doctor/session-st") == ["core/doctor/session-store"]
    assert bash_complete("openclaw --log-level d") == ["debug"]
    assert bash_complete("openclaw compact main --summary-file no") == ["notes.md"]
    assert bash_complete("openclaw sessions --agent ") == ["main", "work", "research"]
    assert bash_complete("openclaw sessions cleanup --agent w") == ["work"]
    assert bash_complete("openclaw --profile ") == ["lab"]
    assert bash_complete("openclaw sessions --active ") == []


# --- zsh and fish: run them where they are installed, check the structure everywhere -----------

def _block_balance(text: str, openers: tuple[str, ...], closer: str) -> int:
    depth = 0
    for line in text.splitlines():
        word = line.strip().split(" ", 1)[0]
        depth += word in openers
        depth -= word == closer
        assert depth >= 0, line
    return depth


def test_zsh_script_structure():
    text = _read(ZSH)
    assert text.startswith("#compdef openclaw\n")
    shlex.split(text, comments=True)  # quotes balance
    assert text.count("() {\n") == len(re.findall(r"^}$", text, re.MULTILINE))
    assert len(re.findall(r"\bcase\b", text)) == len(re.findall(r"\besac\b", text))
    for spec in re.findall(r"^    ('.*) \\$", text, re.MULTILINE):
        assert len(shlex.split(spec)) == 1, spec  # each _arguments spec is one word
    assert "compdef _openclaw openclaw" in text


PACKAGES = {"zsh": "zsh", "fish": "fish", "groff": "groff-base"}  # the Debian package of each tool


def require(*tools: str) -> str:
    """The first of `tools` on PATH; none is a failure, never a skip (scripts/test installs them)."""
    for tool in tools:
        if shutil.which(tool):
            return tool
    pytest.fail(f"{' or '.join(tools)} is not installed: run scripts/test, which installs it "
                f"(apt-get install {PACKAGES[tools[0]]})")


def test_zsh_script_loads_in_zsh(tmp_path):
    require("zsh")
    assert subprocess.run(["zsh", "-n", str(ZSH)], capture_output=True, text=True).returncode == 0
    names = " ".join(f"_openclaw_{'_'.join(c.path).replace('-', '_') or 'root'}" for c in COMMANDS)
    # compinit writes (and renames over) its dump file even with -D: never point it at /dev/null
    dump = shlex.quote(str(tmp_path / "zcompdump"))
    script = (f"autoload -Uz compinit && compinit -u -D -d {dump} && source {shlex.quote(str(ZSH))} && "
              f"for f in {names}; do (( $+functions[$f] )) || {{ print missing $f; exit 1 }}; done && "
              "[[ $_comps[openclaw] == _openclaw ]]")
    proc = subprocess.run(["zsh", "-f", "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr


FISH_WORD = r"(?:'(?:[^'\\]|\\.)*'|[^\s'])+"


def _fish_tokens(line: str) -> list[str]:
    """Words of a fish command line (single quotes with backslash escapes); fails on an open quote."""
    assert re.fullmatch(rf"\s*(?:{FISH_WORD}\s*)*", line), line
    return re.findall(FISH_WORD, line)


def test_fish_script_structure():
    text = _read(FISH)
    openers = ("function", "switch", "for", "if", "while", "begin")
    assert _block_balance(text, openers, "end") == 0
    complete_lines = [line for line in text.splitlines() if line.startswith("complete ")]
    assert complete_lines[0] == "complete -c openclaw -f"
    for line in complete_lines[1:]:
        tokens = _fish_tokens(line)
        assert tokens[:4] == ["complete", "-c", "openclaw", "-n"], line
        assert tokens[4].startswith("'__openclaw_at"), line


def test_fish_script_completes_in_fish(tmp_path):
    require("fish")
    assert subprocess.run(["fish", "--no-execute", str(FISH)], capture_output=True).returncode == 0

    def complete(line: str) -> list[str]:
        script = f"source {shlex.quote(str(FISH))}; complete --do-complete {shlex.quote(line)}"
        proc = subprocess.run(["fish", "--no-config", "-c", script], capture_output=True, text=True,
                              env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return [entry.split("\t")[0] for entry in proc.stdout.splitlines()]

    assert complete("openclaw ses") == ["sessions"]
    assert complete("openclaw sessions cleanup --dr") == ["--dry-run"]
    assert complete("openclaw --profile x sessions cleanup --dr") == ["--dry-run"]
    assert complete("openclaw context list --tokenizer ") == sorted(["o200k_base", "cl100k_base", "estimate"])
    assert complete("openclaw doctor --severity-min e") == ["error"]


# --- man pages: render them, or at least check their roff -------------------------------------

SECTIONS = ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "SEE ALSO")
MACROS = {".TH", ".SH", ".TP", ".PP", ".B", ".nh", ".ad", '.\\"'}
PAGES = sorted(p.name for p in (ROOT / MAN_DIR).glob("*.1"))


@pytest.mark.parametrize("name", PAGES)
def test_man_page_structure(name):
    lines = _read(ROOT / MAN_DIR / name).splitlines()
    th = next(line for line in lines if line.startswith(".TH "))
    assert th.startswith(f".TH {roff_escape(name[:-2].upper())} 1 ")
    sections = [line[4:] for line in lines if line.startswith(".SH ")]
    assert [s for s in sections if s in SECTIONS] == list(SECTIONS), sections
    name_line = lines[lines.index(".SH NAME") + 1]
    assert name_line.startswith(f"{roff_escape(name[:-2])} \\- ")
    for line in lines:
        if line.startswith((".", "'")):
            assert line.split(" ", 1)[0] in MACROS, line
    assert all(ord(c) < 128 for c in "".join(lines))


@pytest.mark.parametrize("name", PAGES)
def test_man_page_renders(name):
    path = ROOT / MAN_DIR / name
    if require("groff", "man") == "groff":
        proc = subprocess.run(["groff", "-man", "-Tutf8", "-ww", str(path)], capture_output=True, text=True,
                              env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, timeout=60)
    else:
        proc = subprocess.run(["man", "-l", str(path)], capture_output=True, text=True,
                              env={"PATH": "/usr/bin:/bin", "MANPAGER": "cat", "LANG": "C.UTF-8"}, timeout=60)
    assert proc.returncode == 0 and not proc.stderr.strip(), proc.stderr
    rendered = re.sub(r".\x08", "", proc.stdout)
    for section in SECTIONS:
        assert f"\n{section}\n" in rendered
    assert "openclaw" in rendered
