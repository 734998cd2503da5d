"""The persisted form of a store as maintenance measures it: bytes, per-entry chunks, prompt blobs."""

from __future__ import annotations

from dataclasses import dataclass

from openclaw_cli.store import sessions_json as store_mod
from openclaw_cli.store.promptblobs import project_store


@dataclass
class Measured:
    """`projectSessionStoreForPersistence` + `JSON.stringify` of a store, measured once."""

    measurement: store_mod.Measurement

    @property
    def size_bytes(self) -> int:
        return self.measurement.size_bytes

    @property
    def blob_hash_by_key(self) -> dict[str, str]:
        return self.measurement.blob_hashes

    @property
    def blob_bytes(self) -> dict[str, int]:
        return {h: b.ref["bytes"] for h, b in self.measurement.prompt_blobs.items()}

    @property
    def chunk_sizes(self) -> dict[str, int]:
        return self.measurement.chunk_sizes


def measure(store: dict, store_path: str) -> Measured:
    return Measured(store_mod.measure_serialized(store, store_path))


def blob_hashes(store: dict, store_path: str) -> dict[str, str]:
    """key → sha256 of the prompt blob the persisted entry refers to (no serialisation)."""
    from openclaw_cli.maintenance.budget import blob_hash_of

    persisted, _blobs, _changed = project_store(store, store_path)
    out: dict[str, str] = {}
    for key, entry in persisted.items():
        h = blob_hash_of(entry)
        if h:
            out[key] = h
    return out
