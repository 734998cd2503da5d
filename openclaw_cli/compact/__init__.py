"""Compaction of a session transcript offline: the planner, the summarizers, the entry and the files."""
