"""Why cleanup keeps or removes each entry and file: the rules its steps applied, recorded as they decide."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

DAY_MS = 86_400_000


def span(ms: float) -> str:
    """A duration in the largest whole unit that fits: 41d, 5h, 12m, 30s."""
    ms = max(0.0, float(ms))
    for unit, size in (("d", DAY_MS), ("h", 3_600_000), ("m", 60_000)):
        if ms >= size:
            return f"{int(ms // size)}{unit}"
    return f"{int(ms // 1000)}s"


def size(n: float) -> str:
    from humanfriendly import format_size

    return format_size(max(0, int(n)))


@dataclass(frozen=True)
class Decision:
    code: str  # what kind of rule: "protected:thread", "active-key", "young", "prune-stale", ...
    text: str  # the rule and its numbers, as shown


@dataclass
class Explain:
    """The decisions one cleanup plan made, by store key and by file path."""

    kept: dict[str, list[Decision]] = field(default_factory=dict)
    acted: dict[str, dict[str, Decision]] = field(default_factory=dict)  # key -> action -> the decision
    files: dict[str, tuple[str, str, Decision]] = field(default_factory=dict)  # path -> (action, family, decision)

    def keep(self, key: str, code: str, text: str) -> None:
        self.kept.setdefault(key, []).append(Decision(code, text))

    def act(self, key: str, action: str, text: str) -> None:
        self.acted.setdefault(key, {}).setdefault(action, Decision(action, text))

    def file(self, path: str, action: str, family: str, code: str, text: str) -> None:
        """The first rule that removed a file, else the last that looked at it."""
        prior = self.files.get(path)
        if prior is not None and prior[0] != "keep":
            return
        self.files[path] = (action, family, Decision(code, text))

    def reason(self, key: str, action: str) -> str:
        if action != "keep":
            decision = self.acted.get(key, {}).get(action)
            return decision.text if decision else ""
        notes = self.kept.get(key)
        if not notes:
            return "no rule applies to it"
        seen: list[str] = []
        for note in notes:
            if note.text not in seen:
                seen.append(note.text)
        return "; ".join(seen)

    def protections(self, keys) -> Counter[str]:
        """Entries kept per kind of protection (the first that spared each kept key)."""
        counts: Counter[str] = Counter()
        for key in keys:
            notes = self.kept.get(key) or []
            spared = next((n.code for n in notes if n.code.startswith(("protected:", "active-key"))), None)
            counts[spared or (notes[0].code if notes else "no-rule")] += 1
        return counts


def protected_text(key: str, entry, preserve) -> tuple[str, str]:
    """(code, text) for an entry a step spared because it is preserved or protected."""
    from openclaw_cli.store import keys as keymod

    if preserve is not None and key in preserve:
        return "active-key", "the --active-key session"
    kind = keymod.protection_kind(key, entry)
    return f"protected:{kind}", f"protected: {kind} conversation pointer, never pruned by age or count"


PROTECTION_LABELS = {
    "active-key": "the --active-key session",
    "young": "younger than pruneAfter (or no updatedAt)",
    "within-cap": "within maxEntries",
    "has-transcript": "transcript has messages (--fix-missing)",
    "no-session-id": "agent key without a sessionId (--fix-missing)",
    "no-rule": "no rule removes it",
}


def protection_lines(counts: Counter[str]) -> list[str]:
    """"Why so little?": how many kept entries each protection or rule spared."""
    if not counts:
        return []
    out = ["", "Why entries were kept:"]
    protected = {code.split(":", 1)[1]: n for code, n in counts.items() if code.startswith("protected:")}
    if protected:
        kinds = ", ".join(f"{kind} {n:,}" for kind, n in sorted(protected.items(), key=lambda kv: (-kv[1], kv[0])))
        out.append(f"  protected conversation pointers (never pruned by age or count): {sum(protected.values()):,}"
                   f" ({kinds})")
    for code, label in PROTECTION_LABELS.items():
        if counts.get(code):
            out.append(f"  {label}: {counts[code]:,}")
    return out


def _born_ms(path: str, mtimes: dict[str, float]) -> float | None:
    """When a file counts as made: an archive's name timestamp (what retention judges), else its mtime."""
    from openclaw_cli.store.artifacts import ARCHIVE_REASONS, parse_archive_timestamp

    name = path.rsplit("/", 1)[-1]
    for reason in ARCHIVE_REASONS:
        if f".{reason}." in name:  # the cheap test first: most files are no archive
            stamp = parse_archive_timestamp(name, reason)
            if stamp is not None:
                return stamp
    return mtimes.get(path)


def artifacts_json(why: Explain, now_ms: int, mtimes: dict[str, float]) -> list[dict]:
    """Every file the plan looked at: path, family, age, action and the rule, by path."""
    out = []
    for path in sorted(why.files):
        action, family, decision = why.files[path]
        born = _born_ms(path, mtimes)
        out.append({"path": path, "family": family, "ageMs": None if born is None else max(0, int(now_ms - born)),
                    "action": action, "reason": decision.text})
    return out
