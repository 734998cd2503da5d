"""Errors of the JavaScript-regex compiler."""

from __future__ import annotations


class JsSyntaxError(ValueError):
    """The source is not a valid JavaScript regular expression (OpenClaw drops it)."""


class Unsupported(ValueError):
    """Valid JavaScript that Python's `re` cannot express faithfully."""
