"""Agents that share one `session.store` folder (`~/shared/sessions.json`, outside the state) keep their
sessions in databases OpenClaw 2026.9.6 names per agent: the folder's `openclaw-agent.sqlite` belongs to
its owner (the global registry's, else the database's own, else the default agent while it is free), the
others have `openclaw-agent.<agent>.sqlite` (`openclaw-agent.<agent>.<N>.sqlite` when that name is
another agent's). On a state a 2026.9.6 Gateway wrote, ours lists, plans and refuses as it does, byte for
byte, and changes no file; `context` reads the database the Gateway's `/context` reads (a `.sqlite` store
as its owner's), and `sessions disk` budgets the folder as 2026.9.6's dry run does."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import cli, refbin, sqlite_gen
from helpers.folders import folder_digest
from helpers.gateway import start_gateway
from helpers.sqlite_state import assert_same_as_96, last_reply, wait_until_settled
from helpers.state import write_config

from openclaw_cli.store.db_target import Owners, family, resolve

KEYS = ["agent:main:main", "agent:work:main", "agent:work:notes"]
SHARED = "shared"
STORE = "{home}/shared/sessions.json"
MAIN_DB = "{home}/shared/openclaw-agent.sqlite"
WORK_DB = "{home}/shared/openclaw-agent.work.sqlite"
CONTEXT_KEY = "agent:work:main"  # work's session, which `/context` is asked about
CONTEXT_MODES = ("json", "list")
REPLIES = "context-replies"  # beside the home: ours and the Gateway's `/context` replies, as the fixtures kept them


# -- the rule, on databases made here -------------------------------------------------------------------------------

def _agent_db(path: Path, owner: str) -> None:
    """A file with an agent database's `schema_meta` row naming `owner` (all the rule reads of it)."""
    import apsw

    conn = apsw.Connection(str(path))
    conn.execute("PRAGMA user_version = 23; CREATE TABLE schema_meta (meta_key TEXT PRIMARY KEY, role TEXT, "
                 f"schema_version INTEGER, agent_id TEXT, app_version TEXT); INSERT INTO schema_meta VALUES ('primary', 'agent', 23, '{owner}', NULL)")
    conn.close()


def _db(folder: Path, agent: str, state: Path) -> str:
    return resolve(str(folder / "sessions.json"), agent, owners=Owners({"OPENCLAW_STATE_DIR": str(state)}))


def test_a_free_folder_gives_the_default_agent_the_unsuffixed_file_and_the_others_their_own(tmp_path):
    assert _db(tmp_path, "main", tmp_path / "state").path == str(tmp_path / "openclaw-agent.sqlite")
    assert _db(tmp_path, "Work", tmp_path / "state").path == str(tmp_path / "openclaw-agent.work.sqlite")


def test_the_unsuffixed_file_belongs_to_its_owner_and_a_taken_suffixed_name_is_numbered(tmp_path):
    _agent_db(tmp_path / "openclaw-agent.sqlite", "work")
    _agent_db(tmp_path / "openclaw-agent.ops.sqlite", "main")
    state = tmp_path / "state"
    assert _db(tmp_path, "work", state).path == str(tmp_path / "openclaw-agent.sqlite")
    assert _db(tmp_path, "main", state).path == str(tmp_path / "openclaw-agent.main.sqlite")
    assert _db(tmp_path, "ops", state).path == str(tmp_path / "openclaw-agent.ops.2.sqlite")
    assert family(str(tmp_path / "sessions.json")) == [str(tmp_path / "openclaw-agent.sqlite"),
                                                       str(tmp_path / "openclaw-agent.ops.sqlite")]


# -- against the real 2026.9.6 --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def shared_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Made once per module: a 2026.9.6 Gateway with agents main and work sharing `~/shared/sessions.json`,
    one turn in main's session and one in each of work's two, then `/context json` and `list` asked of
    work's main session (ours and its replies kept in REPLIES beside the home), stopped cleanly. Its home."""
    if not refbin.reference_available(refbin.SQLITE_ERA_VERSION):
        pytest.fail(refbin.missing_message(refbin.SQLITE_ERA_VERSION))
    from test_compact_fakellm import FakeLLM

    base = tmp_path_factory.mktemp("shared-9.6")
    with FakeLLM() as llm:
        config = sqlite_gen.model_config(llm.base_url)
        config["agents"]["entries"] = {"main": {}, "work": {"name": "Work"}}
        config["session"] = {"store": "~/shared/sessions.json"}
        home = sqlite_gen.drive(base, config, KEYS, then=_ask_context(WORK_DB, base / REPLIES)).home
    assert sorted(p.name for p in (home / SHARED).glob("*.sqlite")) == [
        "openclaw-agent.sqlite", "openclaw-agent.work.sqlite"], "2026.9.6 gave work a suffixed database"
    return home


def _ask_context(db: str, replies: Path) -> Callable:
    """For sqlite_gen.drive: our `context <mode>` on CONTEXT_KEY, read while the Gateway runs, then the
    Gateway's own reply to `/context <mode>` (the whole text, from the transcript), kept in `replies`.
    Ours comes first: the Gateway's command turn reaches the transcript after its reply is made."""
    from helpers.context import as_replied, env_for, run_context

    def ask(gateway, client_home: Path) -> None:
        from openclaw_cli.gateway.rpc import chat_send

        replies.mkdir(parents=True, exist_ok=True)
        path = Path(db.format(home=gateway.home))
        for mode in CONTEXT_MODES:
            mine = run_context([mode, "--session", CONTEXT_KEY, "--offline", *(["--plain"] if mode != "json" else [])],
                               env_for(gateway.home))
            (replies / f"{mode}.ours").write_text(f"{mine.returncode}\n{as_replied(mine.stdout.rstrip(chr(10)))}")
            sender = sqlite_gen.client_connection(gateway, "chat.send", client_home)
            result = chat_send({"sessionKey": CONTEXT_KEY, "message": f"/context {mode}"}, connection=sender,
                               timeout_ms=120_000)
            assert result.final is not None and result.final.get("state") == "final", result.final
            (replies / f"{mode}.theirs").write_text(last_reply(path, CONTEXT_KEY))
            wait_until_settled(path, CONTEXT_KEY)
    return ask


def _config(change: Callable[[dict], None]) -> Callable[[Path], None]:
    def edit(home: Path) -> None:
        path = home / ".openclaw" / "openclaw.json"
        cfg = json.loads(path.read_text())
        change(cfg)
        path.write_text(json.dumps(cfg, indent=2))
    return edit


def _ops(cfg: dict) -> None:
    cfg["agents"]["entries"]["ops"] = {}


def _ops_name_taken(home: Path) -> None:
    """Agent ops, and work's database copied to the name ops would have."""
    _config(_ops)(home)
    for suffix in ("", "-wal", "-shm"):
        shutil.copy2(home / SHARED / f"openclaw-agent.work.sqlite{suffix}", home / SHARED / f"openclaw-agent.ops.sqlite{suffix}")


def _database_store(cfg: dict) -> None:
    cfg["session"]["store"] = "~/shared/openclaw-agent.work.sqlite"


VARIANTS: dict[str, Callable[[Path], None] | None] = {
    "as written": None,
    "the home moved": None,  # the registry names the old paths: owners come from the databases
    "an agent without a database": _config(_ops),
    "a suffixed name taken": _ops_name_taken,
    "a database as the store": _config(_database_store),
}


def _home(source: Path, home: Path, variant: str) -> Path:
    """A copy of the generated state (and its shared folder) under `home`; its registry rehomed unless
    the variant is a moved home."""
    state = sqlite_gen.copy_state(source, home, also=(SHARED,))
    if variant != "the home moved":
        import apsw

        conn = apsw.Connection(str(state / "state" / "openclaw.sqlite"))
        conn.execute("UPDATE agent_databases SET path = replace(path, ?, ?)", (f"{source}/", f"{home}/"))
        conn.close()
    change = VARIANTS[variant]
    if change is not None:
        change(home)
    return home


CASES = [
    ("as written", ["sessions"]),
    ("as written", ["sessions", "--agent", "work"]),
    ("as written", ["sessions", "--all-agents"]),
    ("as written", ["sessions", "list", "--all-agents", "--json"]),
    ("as written", ["sessions", "list", "--agent", "work", "--json"]),
    ("as written", ["sessions", "cleanup", "--dry-run", "--all-agents"]),
    ("as written", ["sessions", "cleanup", "--dry-run", "--agent", "work", "--json"]),
    ("as written", ["sessions", "list", "--store", STORE, "--agent", "work"]),
    ("as written", ["sessions", "list", "--store", MAIN_DB, "--agent", "work", "--json"]),
    ("the home moved", ["sessions", "cleanup", "--dry-run", "--all-agents", "--json"]),
    ("an agent without a database", ["sessions", "--agent", "ops", "--json"]),
    ("an agent without a database", ["sessions", "list", "--all-agents", "--json"]),
    ("an agent without a database", ["sessions", "list", "--store", STORE, "--agent", "ops"]),
    ("an agent without a database", ["sessions", "cleanup", "--dry-run", "--agent", "ops"]),
    ("a suffixed name taken", ["sessions", "list", "--agent", "ops", "--json"]),
    ("a suffixed name taken", ["sessions", "cleanup", "--dry-run", "--agent", "work", "--json"]),
    ("a database as the store", ["sessions", "list", "--all-agents", "--json"]),
]


@pytest.mark.reference
@pytest.mark.gateway
@pytest.mark.parametrize(("variant", "argv"), CASES, ids=[f"{v}: {' '.join(a)}" for v, a in CASES])
def test_agents_sharing_a_store_folder_are_read_from_the_databases_2026_9_6_names(shared_state, tmp_path,
                                                                                    variant, argv):
    homes = [_home(shared_state, tmp_path / name, variant) for name in ("ref", "ours")]
    env = sqlite_gen.clock_env_from(None)
    ref = refbin.run_reference([a.format(home=homes[0]) for a in argv], homes[0], env,
                               version=refbin.SQLITE_ERA_VERSION)
    ours = refbin.run_ours([a.format(home=homes[1]) for a in argv], homes[1], env)
    assert_same_as_96(ours, ref, homes[1], homes[0], bare_text=argv[1:2] != ["list"] and "--json" not in argv
                      and argv[1:2] != ["cleanup"])


@pytest.mark.reference
@pytest.mark.gateway
def test_reading_a_shared_store_folder_changes_no_file(shared_state, tmp_path):
    home = _home(shared_state, tmp_path / "ours", "a suffixed name taken")
    before = folder_digest(home, mtimes=True)
    for _variant, argv in CASES:
        assert refbin.run_ours([a.format(home=home) for a in argv], home).returncode in (0, 1)
    assert folder_digest(home, mtimes=True) == before


# -- context and sessions disk on a shared folder ---------------------------------------------------------------------

def _replies(folder: Path, mode: str) -> tuple[str, str]:
    """(ours, the Gateway's) `/context <mode>` text as a fixture kept them; ours must have succeeded."""
    ours_code, _, mine = (folder / f"{mode}.ours").read_text().partition("\n")
    assert ours_code == "0", mine
    return mine, (folder / f"{mode}.theirs").read_text()


def _stored_report(db: Path, owner: str, key: str) -> dict:
    """The key's persisted run report as our reader gives it from `db`, opened as `owner`'s."""
    from openclaw_cli.store.sqlite.connection import open_agent_db
    from openclaw_cli.store.sqlite.entries import read_entry

    with open_agent_db(str(db), owner) as handle:
        entry = read_entry(handle, key)
    assert entry is not None and entry["systemPromptReport"]["source"] == "run"
    return entry["systemPromptReport"]


@pytest.fixture(scope="module")
def sqlite_store_state(shared_state: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the shared state whose `session.store` is main's `~/shared/openclaw-agent.sqlite`, on which a
    2026.9.6 Gateway ran one turn of CONTEXT_KEY (work's session, which it writes into that database, main's)
    and answered `/context`, ours read just before (REPLIES beside the home). Its home, the Gateway stopped."""
    from test_compact_fakellm import FakeLLM

    from openclaw_cli.gateway.rpc import chat_send

    base = tmp_path_factory.mktemp("shared-sqlite-store-9.6")
    home = _home(shared_state, base / "home", "as written")
    with FakeLLM() as llm:
        def change(cfg: dict) -> None:
            cfg["session"]["store"] = "~/shared/openclaw-agent.sqlite"
            cfg["models"]["providers"]["fake"]["baseUrl"] = llm.base_url
        _config(change)(home)
        gateway = start_gateway(base, auth="token", version=refbin.SQLITE_ERA_VERSION,
                                ready_timeout=sqlite_gen.READY_TIMEOUT_S)
        client = base / "client"
        write_config(client / ".openclaw", {})
        try:
            sender = sqlite_gen.client_connection(gateway, "chat.send", client)
            result = chat_send({"sessionKey": CONTEXT_KEY, "message": "hello again: please say something short"},
                               connection=sender, timeout_ms=120_000)
            assert result.final is not None and result.final.get("state") == "final", result.final
            wait_until_settled(Path(MAIN_DB.format(home=home)), CONTEXT_KEY)
            _ask_context(MAIN_DB, base / REPLIES)(gateway, client)
        finally:
            gateway.stop()
    return home


@pytest.mark.reference
@pytest.mark.gateway
def test_context_of_an_agent_with_a_suffixed_database_reads_it_as_the_2026_9_6_gateway_does(shared_state, tmp_path):
    """work's sessions are in `openclaw-agent.work.sqlite`: `context` reads them there, and prints what the
    Gateway replied to `/context` (json byte for byte, list line for line)."""
    for mode in CONTEXT_MODES:
        mine, theirs = _replies(shared_state.parent / REPLIES, mode)
        assert mine == theirs and theirs.startswith(("{", "🧠 Context breakdown"))
    home = _home(shared_state, tmp_path / "ours", "as written")
    before = folder_digest(home, mtimes=True)
    result = cli.run(["context", "json", "--agent", "work", "--offline"], home)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["report"] == _stored_report(Path(WORK_DB.format(home=home)), "work", CONTEXT_KEY)
    assert folder_digest(home, mtimes=True) == before


@pytest.mark.reference
@pytest.mark.gateway
def test_context_on_a_shared_sqlite_store_reads_the_owner_s_database_as_the_2026_9_6_gateway_does(sqlite_store_state):
    """With `session.store` naming main's database, 2026.9.6 keeps work's sessions in it and its `/context`
    reads them from it: `context --agent work` reads that database as main's (not refused as work's)."""
    for mode in CONTEXT_MODES:
        mine, theirs = _replies(sqlite_store_state.parent / REPLIES, mode)
        assert mine == theirs and theirs.startswith(("{", "🧠 Context breakdown"))
    db = Path(MAIN_DB.format(home=sqlite_store_state))
    before = folder_digest(sqlite_store_state, mtimes=True)
    for mode in CONTEXT_MODES:
        result = cli.run(["context", mode, "--agent", "work", "--offline"], sqlite_store_state)
        assert result.returncode == 0, result.stderr
        if mode == "json":
            assert json.loads(result.stdout)["report"] == _stored_report(db, "main", CONTEXT_KEY)
    assert folder_digest(sqlite_store_state, mtimes=True) == before


def _budget(cfg: dict) -> None:
    cfg["session"]["maintenance"] = {"maxDiskBytes": "10mb"}


def _budget_database_store(cfg: dict) -> None:
    _budget(cfg)
    _database_store(cfg)


VARIANTS["a disk budget"] = _config(_budget)
VARIANTS["a disk budget, a database as the store"] = _config(_budget_database_store)


@pytest.mark.reference
@pytest.mark.gateway
@pytest.mark.parametrize(("variant", "agent", "own", "other"), [
    ("a disk budget", "main", MAIN_DB, (WORK_DB, "work")),
    ("a disk budget", "work", WORK_DB, (MAIN_DB, "main")),
    ("a disk budget, a database as the store", "main", WORK_DB, (MAIN_DB, "main")),
], ids=["the folder's owner", "a suffixed agent", "a .sqlite store of another agent"])
def test_sessions_disk_on_a_shared_folder_budgets_what_the_2026_9_6_dry_run_does(shared_state, tmp_path, variant,
                                                                                  agent, own, other):
    """The budget's used bytes are the 2026.9.6 dry run's diskBudget (every agent database of the folder
    and its WAL); the other agent's database is named as such, not a leftover; no file changes."""
    ref, ours = (_home(shared_state, tmp_path / name, variant) for name in ("ref", "mine"))
    planned = refbin.run_reference(["sessions", "cleanup", "--dry-run", "--agent", agent, "--json"], ref,
                                   version=refbin.SQLITE_ERA_VERSION)
    assert planned.returncode == 0, planned.stderr
    before = folder_digest(ours, mtimes=True)
    result = cli.run(["sessions", "disk", "--agent", agent, "--json"], ours)
    text = cli.run(["sessions", "disk", "--agent", agent], ours)
    assert folder_digest(ours, mtimes=True) == before
    assert result.returncode == 0 and text.returncode == 0, result.stderr + text.stderr
    [usage] = json.loads(result.stdout)["agents"]
    assert usage["budget"]["usedBytes"] == json.loads(planned.stdout)["diskBudget"]["totalBytesBefore"]
    assert usage["storePath"] == own.format(home=ours)
    other_db = Path(other[0].format(home=ours))
    files = [p for p in other_db.parent.iterdir() if p.name.startswith(other_db.name)]
    assert usage["database"]["otherAgentDatabases"] == [{"path": str(other_db), "agentId": other[1],
                                                         "files": len(files),
                                                         "bytes": sum(p.stat().st_size for p in files)}]
    assert usage["families"]["otherAgentDatabases"] == {"files": len(files), "bytes": sum(p.stat().st_size for p in files)}
    assert usage["families"]["leftovers"] == {"files": 0, "bytes": 0} and usage["database"]["leftovers"] == []
    in_folder = [p for p in other_db.parent.iterdir() if p.is_file()]
    assert usage["totalBytes"] == sum(p.stat().st_size for p in in_folder) == \
        sum(f["bytes"] for f in usage["families"].values())
    lines = text.stdout.splitlines()
    assert any(line.startswith("other agents' databases ") for line in lines)
    assert any(line.endswith(f"  agent {other[1]:<18} {other_db}") for line in lines), text.stdout
