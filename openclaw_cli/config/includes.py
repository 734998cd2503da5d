"""`$include` in `openclaw.json`: contained paths, size and link checks, deep merge (OpenClaw's includes.ts)."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openclaw_cli.config import paths
from openclaw_cli.config.json5 import parse_json5, read_text
from openclaw_cli.js.values import js_typeof

MAX_INCLUDE_DEPTH = 10
MAX_INCLUDE_BYTES = 2 * 1024 * 1024
MAX_INCLUDE_PATH_LENGTH = 4096
INCLUDE_KEY = "$include"


class ConfigIncludeError(ValueError):
    """A `$include` directive that cannot be honoured."""


_BLOCKED_OBJECT_KEYS = frozenset({"__proto__", "prototype", "constructor"})


def deep_merge(target: Any, source: Any) -> Any:
    """Arrays concatenate, objects merge recursively, anything else: `source` wins."""
    if isinstance(target, list) and isinstance(source, list):
        return [*target, *source]
    if isinstance(target, dict) and isinstance(source, dict):
        result = dict(target)
        for key, value in source.items():
            if key in _BLOCKED_OBJECT_KEYS:
                continue
            result[key] = deep_merge(result[key], value) if key in result else value
        return result
    return source


def _realpath_or_self(path: str) -> str:
    try:
        return os.path.realpath(path, strict=True)
    except (OSError, ValueError):
        return path


@dataclass(frozen=True)
class _IncludeRoot:
    root_dir: str
    real_dir: str


class _Includes:
    """Resolves `$include` for one config file."""

    def __init__(self, config_path: str, extra_roots: list[str]):
        config_dir = paths.normalize_path(os.path.dirname(config_path))
        self.root = _IncludeRoot(config_dir, paths.normalize_path(_realpath_or_self(config_dir)))
        self.extra = [
            _IncludeRoot(paths.normalize_path(r), paths.normalize_path(_realpath_or_self(r)))
            for r in extra_roots if r.startswith("/")
        ]

    def _containing(self, candidate: str, real: bool) -> _IncludeRoot | None:
        for root in (self.root, *self.extra):
            if paths.is_path_inside(root.real_dir if real else root.root_dir, candidate):
                return root
        return None

    def process(self, value: Any, base: str, chain: tuple[str, ...], depth: int) -> Any:
        if isinstance(value, list):
            return [self.process(item, base, chain, depth) for item in value]
        if not isinstance(value, dict):
            return value
        if INCLUDE_KEY not in value:
            return {k: self.process(v, base, chain, depth) for k, v in value.items()}
        directive = value[INCLUDE_KEY]
        included = self._resolve(directive, base, chain, depth)
        siblings = [k for k in value if k != INCLUDE_KEY]
        if not siblings:
            return included
        if not isinstance(included, dict):
            raise ConfigIncludeError("Sibling keys require included content to be an object")
        rest = {k: self.process(value[k], base, chain, depth) for k in siblings}
        return deep_merge(included, rest)

    def _resolve(self, directive: Any, base: str, chain: tuple[str, ...], depth: int) -> Any:
        if isinstance(directive, str):
            return self._load(directive, base, chain, depth)
        if isinstance(directive, list):
            merged: Any = {}
            for item in directive:
                if not isinstance(item, str):
                    raise ConfigIncludeError(
                        f"Invalid $include array item: expected string, got {js_typeof(item)}")
                merged = deep_merge(merged, self._load(item, base, chain, depth))
            return merged
        raise ConfigIncludeError(
            f"Invalid $include value: expected string or array of strings, got {js_typeof(directive)}")

    def _locate(self, include: str, base: str) -> tuple[str, _IncludeRoot]:
        if "\0" in include:
            raise ConfigIncludeError("Include path must not contain null bytes")
        if len(include) >= MAX_INCLUDE_PATH_LENGTH:
            raise ConfigIncludeError(
                f"Include path exceeds maximum length ({MAX_INCLUDE_PATH_LENGTH} characters)")
        target = include if include.startswith("/") else paths.resolve_path(os.path.dirname(base), include)
        normalized = paths.normalize_path(target)
        if len(normalized) >= MAX_INCLUDE_PATH_LENGTH:
            raise ConfigIncludeError(
                f"Resolved include path exceeds maximum length ({MAX_INCLUDE_PATH_LENGTH} characters)")
        lexical = self._containing(normalized, real=False)
        if lexical is None:
            raise ConfigIncludeError(
                f"Include path escapes config directory: {include} (root: {self.root.root_dir})")
        try:
            real = os.path.realpath(normalized, strict=True)
        except FileNotFoundError:
            return normalized, lexical
        except (OSError, ValueError):
            raise ConfigIncludeError(
                f"Failed to resolve include file realpath: {include} (resolved: {normalized})") from None
        match = self._containing(real, real=True)
        if match is None:
            raise ConfigIncludeError(
                f"Include path resolves outside config directory (symlink): {include} (root: {self.root.root_dir})")
        return normalized, match

    def _read(self, include: str, resolved: str) -> str:
        failed = f"Failed to read include file: {include} (resolved: {resolved})"
        try:
            info = os.stat(resolved)
        except OSError:
            raise ConfigIncludeError(failed) from None
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_INCLUDE_BYTES or info.st_nlink > 1:
            raise ConfigIncludeError(
                f"Include file failed security checks (regular file, max {MAX_INCLUDE_BYTES} bytes, "
                f"no hardlinks): {include}")
        try:
            return read_text(resolved)
        except OSError:
            raise ConfigIncludeError(failed) from None

    def _load(self, include: str, base: str, chain: tuple[str, ...], depth: int) -> Any:
        resolved, _root = self._locate(include, base)
        if resolved in chain:
            raise ConfigIncludeError("Circular include detected: " + " -> ".join((*chain, resolved)))
        if depth >= MAX_INCLUDE_DEPTH:
            raise ConfigIncludeError(f"Maximum include depth ({MAX_INCLUDE_DEPTH}) exceeded at: {include}")
        raw = self._read(include, resolved)
        try:
            parsed = parse_json5(raw)
        except ValueError:
            raise ConfigIncludeError(
                f"Failed to parse include file: {include} (resolved: {resolved})") from None
        return self.process(parsed, resolved, (*chain, resolved), depth + 1)


def resolve_includes(value: Any, config_path: str, env: Mapping[str, str] | None = None) -> Any:
    """Replace every `$include` in `value` (parsed from `config_path`). Raises ConfigIncludeError."""
    resolver = _Includes(config_path, paths.resolve_include_roots(env))
    return resolver.process(value, config_path, (paths.normalize_path(config_path),), 0)
