"""`openclaw doctor` flags, exit codes, output modes, and that no output ever shows a credential."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from helpers import cli
from helpers.doctor import TOKEN, doctor, f1, f2, lint, state, write_config


def test_lint_only_flags_need_lint(home):
    for flags in ({"json": True}, {"severity_min": "info"}, {"include_all": True}, {"only": ["x"]},
                  {"skip": ["x"]}):
        run = doctor(home, **flags)
        assert run.code == 2, flags
        assert run.err.strip() == "doctor lint options require --lint. Use `openclaw doctor --lint ...`."


def test_severity_min_validation(home):
    run = lint(home, severity_min="bogus")
    assert run.code == 2
    assert run.err.strip() == "Error: Invalid --severity-min value. Expected one of: info, warning, error."


def test_lint_exit_codes_and_selection(home):
    f2(home)
    run = lint(home)
    assert run.code == 1 and run.json["ok"] is False
    assert list(run.json) == ["ok", "checksRun", "checksSkipped", "findings"]
    quiet = lint(home, severity_min="error")
    assert quiet.code == 0 and quiet.json["findings"] == [] and quiet.json["ok"] is True
    unknown = lint(home, only=["core/doctor/nope"])  # reported as OpenClaw reports it; bad usage: exit 2
    assert unknown.code == 2 and unknown.json["checksRun"] == 0
    assert unknown.json["findings"] == [{"checkId": "core/doctor/lint-selection", "severity": "error",
                                         "message": "Unknown health check id selected by --only: core/doctor/nope.",
                                         "path": "core/doctor/nope"}]
    skipped = lint(home, skip=["core/doctor/security", "core/doctor/bootstrap-size"])
    assert "core/doctor/security" not in {f["checkId"] for f in skipped.json["findings"]}
    total = run.json["checksRun"] + run.json["checksSkipped"]
    assert skipped.json["checksRun"] + skipped.json["checksSkipped"] == total
    everything = lint(home, include_all=True, skip=["core/doctor/gateway-health"])
    assert everything.json["checksSkipped"] == 1


def test_lint_findings_sorted(home):
    f1(home)
    found = lint(home, include_all=True, severity_min="info").json["findings"]
    rank = {"error": 0, "warning": 1, "info": 2}
    keys = [(rank[f["severity"]], f["checkId"]) for f in found]
    assert keys == sorted(keys)


def test_lint_fix_only_lints(home):
    f1(home)
    before = (state(home) / "openclaw.json").read_bytes()
    run = doctor(home, lint=True, json=True, fix=True, yes=True)
    assert run.code == 1 and json.loads(run.out)["findings"]
    assert (state(home) / "openclaw.json").read_bytes() == before


def test_lint_human_output():
    from openclaw_cli.doctor.lint import LintResult, emit
    from openclaw_cli.doctor.model import Finding

    out = io.StringIO()
    result = LintResult([Finding("core/doctor/x", "warning", "Bad thing.", "a.b", "Do this.")], 3, 1)
    assert emit(result, "warning", json_mode=False, secrets=set(), out=out) == 1
    assert out.getvalue() == ("doctor --lint: ran 3 check(s), 1 finding(s)\n"
                              "  [warning] core/doctor/x a.b - Bad thing.\n    fix: Do this.\n")
    out = io.StringIO()
    assert emit(LintResult([], 2, 0), "warning", json_mode=False, secrets=set(), out=out) == 0
    assert out.getvalue() == "doctor --lint: ran 2 check(s), 0 finding(s)\n  no findings\n"


def test_nix_mode_refuses_repairs(home):
    f1(home)
    for flags in ({"fix": True}, {"yes": True}, {"generate_gateway_token": True}):
        run = doctor(home, env={"OPENCLAW_NIX_MODE": "1"}, **flags)
        assert run.code == 1 and "Config is managed by Nix" in run.err
    assert doctor(home, env={"OPENCLAW_NIX_MODE": "1"}, non_interactive=True).code == 0


def test_the_cli_prints_plain_text_when_piped_and_exits_with_true_codes(home):
    f1(home)
    env = {"OPENCLAW_GATEWAY_PORT": "1"}
    run = cli.run(["doctor", "--non-interactive"], home, env)
    assert run.returncode == 0
    assert "OpenClaw doctor" in run.stdout and "Doctor complete." in run.stdout
    assert not any(ch in run.stdout for ch in "╭╮╰╯│─")  # plain text when piped
    assert "Invalid config:" in run.stderr
    assert "Traceback" not in run.stderr
    lint_run = cli.run(["doctor", "--lint"], home, env)  # piped: JSON without --json
    assert lint_run.returncode == 1 and json.loads(lint_run.stdout)["ok"] is False
    bad = cli.run(["doctor", "--json"], home, env)
    assert bad.returncode == 2 and "doctor lint options require --lint" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_import_is_cheap():
    code = ("import sys, openclaw_cli.cli.doctor as d; "
            "bad = [m for m in sys.modules if m.startswith(('openclaw_cli.doctor.checks', 'rich', 'websockets'))]; "
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


SECRET_PASSWORD = "pw-SECRET-9876543210"
ENV_TOKEN = "envtok-SECRET-0123456789"


@pytest.mark.parametrize("flags", [
    {"non_interactive": True}, {"fix": True, "non_interactive": True}, {"yes": True},
    {"generate_gateway_token": True}, {"lint": True, "json": True, "include_all": True, "severity_min": "info"},
    {"lint": True, "include_all": True, "severity_min": "info"},
])
def test_no_output_shows_a_credential(home, flags):
    f1(home)
    cfg = json.loads((state(home) / "openclaw.json").read_text())
    cfg["gateway"]["auth"]["password"] = SECRET_PASSWORD
    cfg["gateway"]["bind"] = "lan"
    cfg["gateway"]["remote"] = {"token": "remote-SECRET-tok-123"}
    write_config(home, cfg, mode=0o644)
    run = doctor(home, env={"OPENCLAW_GATEWAY_TOKEN": ENV_TOKEN, "OPENCLAW_GATEWAY_PASSWORD": "envpw-SECRET-x1"},
                 **flags)
    text = run.out + run.err
    for secret in (TOKEN, SECRET_PASSWORD, ENV_TOKEN, "envpw-SECRET-x1", "remote-SECRET-tok-123"):
        assert secret not in text, (secret, flags)
    written = json.loads((state(home) / "openclaw.json").read_text())
    generated = written["gateway"].get("auth", {}).get("token")
    if generated and generated != TOKEN:
        assert generated not in text


def test_a_generated_token_is_never_printed_by_the_cli(home):
    write_config(home, {"gateway": {"mode": "local"}})
    run = cli.run(["doctor", "--generate-gateway-token", "--non-interactive"], home, {"OPENCLAW_GATEWAY_PORT": "1"})
    token = json.loads((state(home) / "openclaw.json").read_text())["gateway"]["auth"]["token"]
    assert len(token) == 48
    assert token not in run.stdout + run.stderr


@pytest.mark.parametrize("flags,tty,expected", [
    # (confirm, aggressive, runtime, interactive-only) answers; the fake terminal always says yes
    ({}, False, (False, False, False, False)),
    ({}, True, (True, True, True, True)),
    ({"fix": True}, False, (True, False, True, False)),
    ({"fix": True}, True, (True, False, True, True)),
    ({"fix": True, "force": True}, False, (True, True, True, False)),
    ({"yes": True}, False, (True, False, True, False)),
    ({"yes": True}, True, (True, False, True, False)),
    ({"non_interactive": True}, True, (False, False, False, False)),
    ({"force": True}, True, (True, True, True, True)),
])
def test_repair_mode_table(flags, tty, expected):
    from openclaw_cli.doctor.prompter import Prompter, resolve_repair_mode

    asked = []
    p = Prompter(resolve_repair_mode(stdin_tty=tty, **flags), lambda message, default: asked.append(message) or True)
    got = (p.confirm("c"), p.confirm_aggressive("a"), p.confirm_runtime_repair("r"),
           p.confirm_runtime_repair("i", False, requires_interactive=True))
    assert got == expected


def test_update_in_progress_blocks_runtime_repairs():
    from openclaw_cli.doctor.prompter import Prompter, resolve_repair_mode

    mode = resolve_repair_mode(fix=True, stdin_tty=False, env={"OPENCLAW_UPDATE_IN_PROGRESS": "1"})
    assert mode.update_repair
    p = Prompter(mode, lambda *_: True)
    assert p.confirm("c") is True and p.confirm_runtime_repair("r") is False


def _next_steps(out: str) -> list[str]:
    block = out.split("Next steps\n", 1)[1].split("\n\n", 1)[0]
    return block.splitlines()


def test_next_steps_that_need_openclaws_cli_say_so_when_it_is_not_installed(home):
    f1(home)  # invalid config: the run ends with `openclaw config validate`
    run = doctor(home, non_interactive=True, env={"PATH": "/usr/bin:/bin"})
    steps = _next_steps(run.out)
    assert "- openclaw config validate" not in steps
    assert ("- `openclaw config validate` needs OpenClaw's own CLI (`openclaw config`), which is not installed "
            "here: install it with `npm install -g openclaw`, or set OPENCLAW_CLI_UPSTREAM to its executable.") in steps
    # our own commands stay as they are
    assert any(step.startswith("- openclaw sessions cleanup --store ") for step in steps)


def test_next_steps_name_openclaws_commands_when_its_cli_is_installed(home, reference):
    f1(home)
    run = doctor(home, non_interactive=True, env={"PATH": f"{reference.reference_bin().parent}:/usr/bin:/bin"})
    steps = _next_steps(run.out)
    assert "- openclaw config validate" in steps
    assert not any("needs OpenClaw's own CLI" in step for step in steps)


SECRET_KEY = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"  # a config key that looks like a GitHub token


def _secret_key_config(home, logging: dict | None = None) -> None:
    os.chmod(state(home), 0o700)
    cfg: dict = {"gateway": {"mode": "local", "auth": {"mode": "token"}}, SECRET_KEY: 1}
    if logging is not None:
        cfg["logging"] = logging
    write_config(home, cfg)


def test_doctor_text_goes_through_the_console_redaction(home):
    _secret_key_config(home)
    run = doctor(home, non_interactive=True)
    assert "- ghp_ab…6789" in run.out.splitlines()  # the Unknown config keys row
    assert SECRET_KEY not in run.out and SECRET_KEY not in run.err


def test_doctor_text_redaction_follows_logging_redact_sensitive(home):
    _secret_key_config(home, {"redactSensitive": "off"})
    assert f"- {SECRET_KEY}" in doctor(home, non_interactive=True).out.splitlines()


def test_lint_text_is_redacted_and_its_json_is_not(home):
    from helpers.doctor import base_env

    from openclaw_cli.doctor.context import Options, new_context
    from openclaw_cli.doctor.lint import emit, run_checks
    from openclaw_cli.doctor.prompter import Prompter, resolve_repair_mode
    from openclaw_cli.doctor.registry import load_checks

    _secret_key_config(home)
    ctx = new_context(base_env(home), prompter=Prompter(resolve_repair_mode(non_interactive=True)),
                      options=Options(lint=True))
    result = run_checks(ctx, load_checks(), only=["core/doctor/legacy-config"])
    text, doc = io.StringIO(), io.StringIO()
    assert emit(result, "warning", json_mode=False, secrets=ctx.secrets, out=text) == 1
    assert "  [warning] core/doctor/legacy-config ghp_ab…6789 - Unknown config key: ghp_ab…6789" in text.getvalue()
    assert SECRET_KEY not in text.getvalue()
    emit(result, "warning", json_mode=True, secrets=ctx.secrets, out=doc)  # JSON is never console-redacted
    assert json.loads(doc.getvalue())["findings"][0]["path"] == SECRET_KEY
