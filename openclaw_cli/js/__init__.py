"""JavaScript semantics for byte parity with OpenClaw: JSON, strings, dates, paths, values."""
