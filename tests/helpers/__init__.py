"""Helpers shared by the test modules (state builders, folder snapshots, CLI runners)."""
