"""JavaScript regular expressions compiled to Python `re`, matching as V8 matches."""

from openclaw_cli.js.regex.compiler import JsRegex, compile_js_regex
from openclaw_cli.js.regex.errors import JsSyntaxError
from openclaw_cli.js.regex.guard import has_nested_repetition
from openclaw_cli.js.regex.units import ASTRAL, from_units, to_units

__all__ = ["ASTRAL", "JsRegex", "JsSyntaxError", "compile_js_regex", "from_units", "has_nested_repetition", "to_units"]
