"""Output in one place: console (JSON, lines, colour), cells, progress, redaction."""
