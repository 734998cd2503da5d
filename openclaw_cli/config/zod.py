"""Pydantic building blocks that validate as OpenClaw's zod schema does (checks, unions, refinements)."""

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, TypeGuard, get_args

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, ValidationError, model_validator
from pydantic_core import core_schema

from openclaw_cli.config import issues
from openclaw_cli.config.units import MAX_SAFE_INTEGER

UNSET: Any = None
"""The default of an optional field: absent is fine, but an explicit null is not (zod's `.optional()`)."""

_ABSENT = object()


def required() -> Any:
    """A required field. The absent value is validated like any other, so that a missing key gets
    the message of its own type (zod lists the allowed literals of a missing `type`, for example),
    not pydantic's generic `missing`."""
    return Field(default=_ABSENT, validate_default=True)


def is_number(value: Any) -> TypeGuard[int | float]:
    """A JSON number (a bool is not one, though Python says it is an int)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def js_same(a: Any, b: Any) -> bool:
    """`a === b` for JSON values: `False` is not `0`, `1.0` is `1`."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return bool(a == b)
    return type(a) is type(b) and a == b


class Strict(BaseModel):
    """A strict zod object: known keys only, no coercion."""

    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=False)


class Loose(BaseModel):
    """A zod object that lets unknown keys through unchecked."""

    model_config = ConfigDict(strict=True, extra="allow", populate_by_name=False)


class Refined(Strict):
    """A strict object with a refinement over the whole object (`refine` yields (loc, message)).

    zod runs an object's refinement when its fields had no aborting issue, beside any continuing
    ones (a bound, a pattern); pydantic runs an after-validator only when everything passed, so
    the refinement runs here around the model's own validation.
    """

    # zod 4 (2026.9.6's `agents`) runs the refinement beside unknown keys too; zod 3 (2026.7.1) does not.
    refine_beside_unknown_keys: ClassVar[bool] = False

    @classmethod
    def refine(cls, value: dict) -> Iterable[tuple[tuple, str]]:
        return ()

    @model_validator(mode="wrap")
    @classmethod
    def _zod_refinement(cls, value: Any, handler: Callable[[Any], Any]) -> Any:
        errors: list = []
        result = None
        try:
            result = handler(value)
        except ValidationError as exc:
            errors = exc.errors()
            if any(issues.aborts(e) and not (cls.refine_beside_unknown_keys and e["type"] == "extra_forbidden")
                   for e in errors):
                raise
        found = [issues.new_error(loc, issues.check_error(message)) for loc, message in cls.refine(value)]
        if errors or found:
            issues.raise_errors([*errors, *found])
        return result


class Deferred:
    """`Annotated[Any, Deferred(build)]`: a value of the type `build()` returns, which is imported and
    built on first use (a config's sections are built only when it has them). Its errors are the
    type's own, at the field's path."""

    def __init__(self, build: Callable[[], Any]):
        self._build = build
        self._kind: Any = None
        self._adapter: Any = None

    def kind(self) -> Any:
        if self._kind is None:
            self._kind = self._build()
        return self._kind

    def _check(self, value: Any) -> Any:
        if self._adapter is None:
            from pydantic import TypeAdapter

            kind = self.kind()
            model = isinstance(kind, type) and issubclass(kind, BaseModel)
            self._adapter = TypeAdapter(kind) if model else TypeAdapter(kind, config=ConfigDict(strict=True))
        try:
            return self._adapter.validate_python(value)
        except ValidationError as exc:
            issues.raise_errors(exc.errors())

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return core_schema.no_info_plain_validator_function(self._check)


class OneOf:
    """`Annotated[Literal[...], ONE_OF]`: the literal compared with `===` (pydantic's Literal takes
    `0` for `False` and `True` for `1`), failing with the allowed values for the message."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> Any:
        values = get_args(source)

        def check(value: Any) -> Any:
            if not any(js_same(value, v) for v in values):
                raise issues.value_error(values)
            return value

        return core_schema.no_info_plain_validator_function(check)


ONE_OF = OneOf()


class JsNumber:
    """`Annotated[float, JsNumber(...)]`: a finite JS number, optionally an integer, with bounds.

    Not pydantic's `int`/`Field(gt=...)`: a JSON integer may arrive as `1.0`, and zod reports every
    failed check (too big for a safe integer *and* above the maximum), where pydantic stops at
    the first; the bound is named in the message as OpenClaw words it.
    """

    def __init__(self, *, integer: bool = False, gt: float | None = None, ge: float | None = None,
                 le: float | None = None, refine: Callable[[float], bool] | None = None):
        self.integer, self.gt, self.ge, self.le, self.refine = integer, gt, ge, le, refine

    def _check(self, value: float) -> float:
        if self.integer and not float(value).is_integer():
            raise issues.type_error("int")
        failed: list[str] = []
        if self.integer and abs(value) > MAX_SAFE_INTEGER:
            failed.append("Invalid input")
        if self.gt is not None and not value > self.gt:
            failed.append(f"Invalid input (must be greater than {_num(self.gt)})")
        if self.ge is not None and not value >= self.ge:
            failed.append(f"Invalid input (minimum: {_num(self.ge)})")
        if self.le is not None and not value <= self.le:
            failed.append(f"Invalid input (maximum: {_num(self.le)})")
        errors = [issues.new_error((), issues.check_error(m), value) for m in failed]
        if self.refine is not None and not self.refine(value):
            errors.append(issues.new_error((), issues.type_error(), value))
        if errors:
            issues.raise_errors(errors)
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return core_schema.no_info_after_validator_function(
            self._check, core_schema.float_schema(strict=True, allow_inf_nan=False))


def _num(limit: float) -> str:
    from openclaw_cli.js.strings import js_number_to_string

    return js_number_to_string(limit)


class Checked:
    """`Annotated[str, Checked(test, message)]`: a string check with OpenClaw's own message."""

    def __init__(self, test: Callable[[str], bool], message: str):
        self.test, self.message = test, message

    def _check(self, value: str) -> str:
        if not self.test(value):
            raise issues.check_error(self.message)
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return core_schema.no_info_after_validator_function(self._check, handler(source))


class Sized:
    """`Annotated[list[X], Sized(min_items, max_items)]`: an array with a length range.

    zod also checks the length of a string given for the array (it has one), after the type issue.
    """

    def __init__(self, min_items: int | None = None, max_items: int | None = None):
        self.min_items, self.max_items = min_items, max_items

    def _check(self, value: Any, handler: Callable[[Any], Any]) -> Any:
        errors: list = []
        try:
            result = handler(value)
        except ValidationError as exc:
            errors = exc.errors()
        if isinstance(value, (list, str)):
            short = self.min_items is not None and len(value) < self.min_items
            long = self.max_items is not None and len(value) > self.max_items
            if short or long:
                errors.append(issues.new_error((), issues.check_error("Invalid input"), value))
        if errors:
            issues.raise_errors(errors)
        return result

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return core_schema.no_info_wrap_validator_function(self._check, handler(source))


class ZodUnion:
    """`Annotated[A | B, UNION]`: zod's union. When no branch fits and exactly one branch has only
    continuing issues, those are the issues; otherwise one "Invalid input" at the union's path,
    listing the allowed values when every branch could list them. (pydantic prefixes each
    branch's errors with the branch's label: they are grouped by it and the label dropped.)"""

    def _check(self, value: Any, handler: Callable[[Any], Any]) -> Any:
        try:
            return handler(value)
        except ValidationError as exc:
            branches: dict[Any, list] = {}
            for error in exc.errors():
                branches.setdefault(error["loc"][0], []).append({**error, "loc": error["loc"][1:]})
        fitting = [b for b in branches.values() if not any(issues.aborts(e) for e in b)]
        if len(fitting) == 1:
            issues.raise_errors(fitting[0])
        values = issues.union_values(list(branches.values()))
        issues.raise_errors([issues.new_error((), issues.union_error(values), value)])

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return core_schema.no_info_wrap_validator_function(self._check, handler(source))


UNION = ZodUnion()


class ZodTagged:
    """`Annotated[A | B, Discriminator(tag_of("key")), ZodTagged("key")]`: zod's discriminated union.

    Not an object: "Invalid input" at the union's path; no branch for the tag: at the tag's path;
    otherwise the chosen branch's issues at the union's path (pydantic's tag label dropped)."""

    def __init__(self, key: str):
        self.key = key

    def _check(self, value: Any, handler: Callable[[Any], Any]) -> Any:
        if not isinstance(value, dict):
            raise issues.type_error()
        try:
            return handler(value)
        except ValidationError as exc:
            errors = exc.errors()
        if any(e["type"].startswith("union_tag_") for e in errors):
            issues.raise_errors([issues.new_error((self.key,), issues.union_error(None), value)])
        issues.raise_errors([{**e, "loc": e["loc"][1:]} for e in errors])

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> Any:
        return core_schema.no_info_wrap_validator_function(self._check, handler(source))


def tag_of(key: str) -> Callable[[Any], str | None]:
    """The discriminator of a tagged union: the tag when it is a string."""

    def tag(value: Any) -> str | None:
        found = value.get(key) if isinstance(value, dict) else None
        return found if isinstance(found, str) else None

    return tag
