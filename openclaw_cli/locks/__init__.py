"""Locks against overlapping runs: the store lock and process liveness."""
