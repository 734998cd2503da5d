"""The skills prompt: the one the session's last run recorded, else skill names from skill folders."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

_NAME = re.compile(r"^name:\s*[\"']?(.+?)[\"']?\s*$", re.MULTILINE)


def snapshot_prompt(entry: Mapping[str, Any] | None) -> str | None:
    """`entry.skillsSnapshot.prompt` (the store loader already read it back from its blob)."""
    snapshot = (entry or {}).get("skillsSnapshot")
    prompt = snapshot.get("prompt") if isinstance(snapshot, Mapping) else None
    return prompt if isinstance(prompt, str) else None


def _skill_name(skill_dir: str) -> str | None:
    path = os.path.join(skill_dir, "SKILL.md")
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            head = handle.read(4096)
    except OSError:
        return None
    if head.startswith("---"):
        end = head.find("\n---", 3)
        match = _NAME.search(head[3:end if end > 0 else len(head)])
        if match and match.group(1).strip():
            return match.group(1).strip()
    return os.path.basename(skill_dir)


def folder_skill_names(workspace: str, state_dir: str) -> list[str]:
    """Names of the skills found in `<workspace>/skills` and `<state>/skills` (first wins).
    Bundled and plugin skills live with the installed OpenClaw and are not included."""
    names: list[str] = []
    for root in (os.path.join(workspace, "skills"), os.path.join(state_dir, "skills")):
        try:
            children = sorted(os.listdir(root))
        except OSError:
            continue
        for child in children:
            name = _skill_name(os.path.join(root, child))
            if name and name not in names:
                names.append(name)
    return names
