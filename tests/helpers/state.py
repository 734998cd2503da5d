"""State builders: a scratch HOME's OpenClaw state folder, its session folders and its config file."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def state_dir(home: Path) -> Path:
    """The default state folder of a HOME (`~/.openclaw`)."""
    return home / ".openclaw"


def sessions_dir(state: Path, agent: str = "main") -> Path:
    """An agent's sessions folder inside a state folder (`<state>/agents/<agent>/sessions`)."""
    return state / "agents" / agent / "sessions"


def home_sessions_dir(home: Path, agent: str = "main") -> Path:
    """An agent's sessions folder under a HOME's default state folder."""
    return sessions_dir(state_dir(home), agent)


def write_config(state: Path, config: Mapping[str, Any] | str, *, indent: int | None = 2,
                 mode: int | None = None) -> Path:
    """`<state>/openclaw.json` holding `config` (JSON with `indent`, or the text as given); the
    folder is created if needed and the file gets `mode` if one is given. Returns its path."""
    state.mkdir(parents=True, exist_ok=True)
    path = state / "openclaw.json"
    path.write_text(config if isinstance(config, str) else json.dumps(config, indent=indent))
    if mode is not None:
        os.chmod(path, mode)
    return path
