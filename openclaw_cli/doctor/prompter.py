"""Repair-mode resolution from flags and TTY state, and the prompts doctor may ask."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from openclaw_cli.errors import CliError

_TRUTHY = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class RepairMode:
    """How a doctor run answers its prompts (see the prompt table in the docs)."""

    should_repair: bool
    should_force: bool
    non_interactive: bool
    can_prompt: bool
    update_in_progress: bool = False

    @property
    def update_repair(self) -> bool:
        return self.update_in_progress and self.non_interactive


def resolve_repair_mode(*, fix: bool = False, yes: bool = False, non_interactive: bool = False,
                        force: bool = False, stdin_tty: bool = False,
                        env: Mapping[str, str] | None = None) -> RepairMode:
    """`--fix`/`--repair` or `--yes` repair; no TTY (and no `--yes`) means non-interactive."""
    env = env or {}
    non_interactive = non_interactive or (not stdin_tty and not yes)
    updating = (env.get("OPENCLAW_UPDATE_IN_PROGRESS") or "").strip().lower() in _TRUTHY
    return RepairMode(should_repair=fix or yes, should_force=force, non_interactive=non_interactive,
                      can_prompt=stdin_tty and not yes and not non_interactive,
                      update_in_progress=updating)


class PromptCancelled(CliError):
    """Ctrl-C (or end of input) at a prompt: the run stops with exit 130."""

    exit_code = 130


Asker = Callable[[str, bool], bool]


def ask_on_terminal(message: str, default: bool) -> bool:
    """A yes/no question on stderr, answered on stdin; empty answer = default."""
    from openclaw_cli.ui.console import stderr_text

    suffix = " [Y/n] " if default else " [y/N] "
    while True:
        stderr_text(message + suffix, flush=True)
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            stderr_text("\n")
            raise PromptCancelled("Setup cancelled.") from None
        if not line:
            raise PromptCancelled("Setup cancelled.")
        answer = line.strip().lower()
        if not answer:
            return default
        if answer in ("y", "yes"):
            return True
        if answer in ("n", "no"):
            return False


class Prompter:
    """Answers doctor's questions according to the repair mode; asks only when it may."""

    def __init__(self, mode: RepairMode, ask: Asker | None = None):
        self.mode = mode
        self._ask = ask or ask_on_terminal
        self.asked: list[str] = []

    @property
    def should_repair(self) -> bool:
        return self.mode.should_repair

    def _prompt(self, message: str, default: bool) -> bool:
        self.asked.append(message)
        return self._ask(message, default)

    def _ask_if_attended(self, message: str, default: bool) -> bool:
        """No when non-interactive, the default without a terminal, else the answer to the prompt."""
        if self.mode.non_interactive:
            return False
        if not self.mode.can_prompt:
            return default
        return self._prompt(message, default)

    def confirm(self, message: str, default: bool = True) -> bool:
        """Config repairs, token generation: yes under --fix/--yes, no when non-interactive."""
        if self.mode.should_repair:
            return True
        return self._ask_if_attended(message, default)

    def confirm_aggressive(self, message: str, default: bool = False) -> bool:
        """Aggressive repairs: automatic only with --fix plus --force (never asked under --fix alone)."""
        if self.mode.should_repair:
            return self.mode.should_force
        return self._ask_if_attended(message, default)

    def confirm_runtime_repair(self, message: str, default: bool = True, *,
                               requires_interactive: bool = False) -> bool:
        """File and permission repairs; `requires_interactive` ones need a real yes at a prompt."""
        if not requires_interactive and self.mode.should_repair and not self.mode.update_repair:
            return True
        if requires_interactive and not self.mode.can_prompt:
            return False
        return self._ask_if_attended(message, default)
