"""The transcript tree scan used by 2026.7.1's display reader and manual trim (`transcript-tree`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from openclaw_cli.js.strings import js_trim
from openclaw_cli.js.values import UNDEFINED
from openclaw_cli.transcript.index import CANONICAL_TYPES


@dataclass(frozen=True, slots=True)
class TreeNode:
    id: str
    parent_id: Any  # str | None | UNDEFINED (raw parentId of an invalid leaf control)
    leaf_id: Any  # str | None | UNDEFINED
    append_parent_id: Any
    side: bool
    entry: Any
    index: int


@dataclass
class TreeScan:
    nodes: list[TreeNode] = field(default_factory=list)
    by_id: dict[str, TreeNode] = field(default_factory=dict)
    leaf_id: str | None = None
    append_parent_id: str | None = None
    has_leaf_control: bool = False
    has_leaf_update: bool = False
    has_explicit_leaf_update: bool = False
    has_invalid_leaf_control: bool = False


def _non_empty(value: Any) -> Any:
    return value if isinstance(value, str) and js_trim(value) else UNDEFINED


def _is_canonical(record: Any) -> bool:
    return isinstance(record, Mapping) and record.get("type") in CANONICAL_TYPES


def parse_tree_entry(record: Any) -> TreeNode | None:
    """One parent-linked row (`parseSessionTranscriptTreeEntry`); leaf controls point at a target."""
    if not isinstance(record, Mapping) or record.get("type") == "session" or "parentId" not in record:
        return None
    rid = _non_empty(record.get("id"))
    parent = None if record["parentId"] is None else _non_empty(record["parentId"])
    if rid is UNDEFINED or parent is UNDEFINED:
        return None
    side = record.get("appendMode") == "side"
    if record.get("type") == "leaf":
        target = None if record.get("targetId", UNDEFINED) is None else _non_empty(record.get("targetId"))
        raw_append = record.get("appendParentId", UNDEFINED)
        append = target if raw_append is UNDEFINED else (None if raw_append is None else _non_empty(raw_append))
        mode = record.get("appendMode", UNDEFINED)
        if target is UNDEFINED or append is UNDEFINED or (mode is not UNDEFINED and mode != "side"):
            return None
        return TreeNode(rid, target, target, append, side, record, -1)
    return TreeNode(rid, parent, rid if _is_canonical(record) and not side else UNDEFINED, rid, side, record, -1)


def is_leaf_control(record: Any) -> bool:
    return isinstance(record, Mapping) and record.get("type") == "leaf" and parse_tree_entry(record) is not None


def _resolve_canonical_parent(parent_id: Any, by_id: Mapping[str, TreeNode]) -> Any:
    seen: set[str] = set()
    current = parent_id
    while current is not None:
        if current in seen:
            return current
        seen.add(current)
        parent = by_id.get(current)
        if parent is None or not is_leaf_control(parent.entry):
            return current
        current = parent.parent_id
    return None


def scan_tree(records: Sequence[Any]) -> TreeScan:
    """`scanSessionTranscriptTree`: navigation state in file order."""
    tree = TreeScan()
    invalid: set[str] = set()

    def known(ref: Any) -> bool:
        return ref is None or (ref in tree.by_id and ref not in invalid)

    node: TreeNode | None
    for index, record in enumerate(records):
        explicit = parse_tree_entry(record)
        if (explicit is not None and explicit.leaf_id is not UNDEFINED and is_leaf_control(record)
                and (not known(explicit.leaf_id) or not known(explicit.append_parent_id))):
            tree.has_invalid_leaf_control = True
            invalid.add(explicit.id)
            node = replace(explicit, parent_id=record["parentId"], leaf_id=UNDEFINED,
                           append_parent_id=tree.append_parent_id, index=index)
            tree.nodes.append(node)
            tree.by_id[node.id] = node
            continue
        node = explicit
        if node is None and _is_canonical(record) and "parentId" not in record:
            rid = _non_empty(record.get("id"))
            if rid is not UNDEFINED:
                side = record.get("appendMode") == "side"
                node = TreeNode(rid, tree.leaf_id, UNDEFINED if side else rid, rid, side, record, -1)
        if node is not None and _is_canonical(record):
            candidate = (tree.leaf_id if explicit is not None and not node.side
                         and node.parent_id == tree.append_parent_id
                         and tree.leaf_id != tree.append_parent_id else node.parent_id)
            normalized = _resolve_canonical_parent(candidate, tree.by_id)
            if normalized != node.parent_id:
                node = replace(node, parent_id=normalized)
        if node is None:
            continue
        node = replace(node, index=index)
        tree.nodes.append(node)
        tree.by_id[node.id] = node
        tree.append_parent_id = node.append_parent_id
        if node.leaf_id is not UNDEFINED:
            tree.leaf_id = node.leaf_id
            tree.has_leaf_update = True
            if explicit is not None:
                tree.has_explicit_leaf_update = True
        if is_leaf_control(record):
            tree.has_leaf_control = True
    return tree


def select_path(tree: TreeScan, leaf_id: str | None) -> list[TreeNode]:
    """`selectSessionTranscriptTreePathNodes`: root→leaf, [] on a cycle, missing parents cut."""
    if leaf_id is None:
        return []
    path: list[TreeNode] = []
    seen: set[str] = set()
    current: Any = leaf_id
    while isinstance(current, str) and current:
        if current in seen:
            return []
        seen.add(current)
        node = tree.by_id.get(current)
        if node is None:
            break
        if not is_leaf_control(node.entry):
            path.append(node)
        current = node.parent_id
    path.reverse()
    return path
