"""A config's sections are imported and built only when the config has them."""

import json
import subprocess
import sys

PROBE = """
import json, sys
from openclaw_cli.config.schema import validate_config
issues = validate_config(json.loads(sys.argv[1]))
loaded = sorted(m.rsplit(".", 1)[1] for m in sys.modules if m.startswith("openclaw_cli.config.sections."))
print(json.dumps({"issues": [i.format() for i in issues], "sections": loaded}))
"""


def _probe(cfg: dict) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(cfg)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_a_session_only_config_builds_the_session_section_and_no_other():
    found = _probe({"session": {"maintenance": {"pruneAfter": "30d"}}})
    assert found == {"issues": [], "sections": ["base", "session"]}


def test_a_section_that_is_present_is_validated_with_its_own_messages():
    found = _probe({"gateway": {"port": "x"}, "cron": {"webhook": "ftp://x"}})
    assert "gateway" in found["sections"] and "cron" in found["sections"]
    assert "session" not in found["sections"] and "agents" not in found["sections"]
    assert found["issues"] == ["cron.webhook: Expected http:// or https:// URL", "gateway.port: Invalid input"]  # root order
