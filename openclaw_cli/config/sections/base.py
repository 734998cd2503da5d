"""The pieces every section of the config schema shares: numbers, grammars, literal sets."""

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, create_model

from openclaw_cli.config.units import parse_byte_size, parse_duration_ms
from openclaw_cli.config.zod import ONE_OF, UNION, JsNumber
from openclaw_cli.js.strings import js_number_to_string, js_trim

Num = Annotated[float, JsNumber()]
PosInt = Annotated[float, JsNumber(integer=True, gt=0)]
NonNegInt = Annotated[float, JsNumber(integer=True, ge=0)]
StrList = list[str]
StrOrNum = Annotated[str | Num, UNION]
NotFalse = Annotated[Literal[False], ONE_OF]


def integer(*, ge: float, le: float | None = None) -> JsNumber:
    return JsNumber(integer=True, ge=ge, le=le)


# -------------------------------------------------------------------------------- grammars

BAD_DURATION = "invalid duration (use ms, s, m, h, d)"
BAD_SIZE = "invalid size (use b, kb, mb, gb, tb)"


def stringified(value: Any) -> str:
    """normalizeStringifiedOptionalString(value) ?? ''."""
    if isinstance(value, str):
        return js_trim(value)
    if isinstance(value, (bool, int, float)):
        return js_trim(js_number_to_string(value))
    return ""


def duration_ok(value: Any, default_unit: str) -> bool:
    try:
        parse_duration_ms(stringified(value), default_unit)
        return True
    except ValueError:
        return False


def size_ok(value: Any) -> bool:
    try:
        parse_byte_size(stringified(value), "b")
        return True
    except ValueError:
        return False



ChatType = Annotated[Literal["direct", "group", "channel", "dm"], ONE_OF]
AllowDeny = Annotated[Literal["allow", "deny"], ONE_OF]
DmScope = Annotated[Literal["main", "per-peer", "per-channel-peer", "per-account-channel-peer"], ONE_OF]


def with_unchecked(name: str, keys: str, base: type[BaseModel]) -> Any:
    """`base` (or a strict object) plus unchecked fields for the other keys OpenClaw accepts."""
    fields: Any = {f"k_{re.sub(r'[^0-9A-Za-z_]', '_', key)}": (Any, Field(None, alias=key))
                   for key in keys.split() if key not in base.model_fields}
    return create_model(name, __base__=base, __module__=__name__, **fields)
