"""SecretRef inputs of OpenClaw 2026.7.1's config schema (env, file, exec), shared by its sections."""

import re
from typing import Annotated, Any, Literal, Union

from pydantic import Discriminator, Tag

from openclaw_cli.config.zod import ONE_OF, UNION, Checked, Strict, ZodTagged, required, tag_of

_FILE_SEGMENT = re.compile(r"(?:[^~]|~0|~1)*\Z")
_EXEC_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}\Z")


def _matches(pattern: str) -> Any:
    return re.compile(pattern).search


def _file_ref_id_ok(value: str) -> bool:
    if value == "value":
        return True
    return value.startswith("/") and all(_FILE_SEGMENT.match(s) for s in value[1:].split("/"))


def _exec_ref_id_ok(value: str) -> bool:
    return bool(_EXEC_ID.match(value)) and all(s not in (".", "..") for s in value.split("/"))


Provider = Annotated[str, Checked(
    _matches(r"^[a-z][a-z0-9_-]{0,63}\Z"),
    'Secret reference provider must match /^[a-z][a-z0-9_-]{0,63}$/ (example: "default").')]


class EnvSecretRef(Strict):
    source: Annotated[Literal["env"], ONE_OF] = required()
    provider: Provider = required()
    id: Annotated[str, Checked(
        _matches(r"^[A-Z][A-Z0-9_]{0,127}\Z"),
        'Env secret reference id must match /^[A-Z][A-Z0-9_]{0,127}$/ (example: "OPENAI_API_KEY").')] = required()


class FileSecretRef(Strict):
    source: Annotated[Literal["file"], ONE_OF] = required()
    provider: Provider = required()
    id: Annotated[str, Checked(
        _file_ref_id_ok,
        'File secret reference id must be an absolute JSON pointer (example: "/providers/openai/apiKey"), '
        'or "value" for singleValue mode.')] = required()


class ExecSecretRef(Strict):
    source: Annotated[Literal["exec"], ONE_OF] = required()
    provider: Provider = required()
    id: Annotated[str, Checked(
        _exec_ref_id_ok,
        'Exec secret reference id must match /^[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}$/ and must not '
        'include "." or ".." path segments (example: "vault/openai/api-key" or "aws/secret#json_key").')] = required()


SecretRef = Annotated[
    Union[Annotated[EnvSecretRef, Tag("env")], Annotated[FileSecretRef, Tag("file")],  # noqa: UP007
          Annotated[ExecSecretRef, Tag("exec")]],
    Discriminator(tag_of("source")), ZodTagged("source")]
SecretInput = Annotated[str | SecretRef, UNION]
