"""Typed game options: declared once as a dataclass, read from JSON or `KEY=VALUE` text."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from spieltisch.core.errors import InvalidOptions

__all__ = [
    "describe_options",
    "int_between",
    "option",
    "options_to_json",
    "parse_options",
    "read_int",
    "start_seat_value",
]

T = TypeVar("T")
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def option(default: Any, doc: str, read: Callable[[Any], Any] | None = None) -> Any:
    """Declare an option field: its default, a one-line description and an optional reader."""
    return dataclasses.field(default=default, metadata={"doc": doc, "read": read})


def _read_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
        return value.lower() in _TRUE
    raise ValueError("expected true or false")


def read_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("expected a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().removeprefix("-").isdecimal():
        return int(value)
    raise ValueError("expected a whole number")


def int_between(low: int, high: int, what: str) -> Callable[[Any], int]:
    """Reader for a whole number from `low` to `high`; `what` names the range in errors."""

    def read(value: Any) -> int:
        number = read_int(value)
        if not low <= number <= high:
            raise ValueError(f"{what} must be from {low} to {high}")
        return number

    return read


def start_seat_value(value: Any) -> int | str:
    """Reader for a start-seat option: a seat number or the word 'random'."""
    if isinstance(value, str) and value.lower() == "random":
        return "random"
    try:
        return read_int(value)
    except ValueError:
        raise ValueError("expected a seat number or 'random'") from None


def _reader(field: dataclasses.Field[Any]) -> Callable[[Any], Any]:
    custom = field.metadata.get("read")
    if custom is not None:
        return custom  # type: ignore[no-any-return]
    if isinstance(field.default, bool):
        return _read_bool
    if isinstance(field.default, int):
        return read_int
    return str


def parse_options(cls: type[T], values: Mapping[str, Any] | None) -> T:
    """Build the options dataclass `cls` from `values`, naming what is wrong if anything is."""
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    given = dict(values or {})
    unknown = sorted(set(given) - set(fields))
    if unknown:
        raise InvalidOptions(
            f"unknown option {', '.join(unknown)}; the options are: {', '.join(sorted(fields))}"
        )
    kwargs: dict[str, Any] = {}
    for name, raw in given.items():
        try:
            kwargs[name] = _reader(fields[name])(raw)
        except (TypeError, ValueError) as error:
            raise InvalidOptions(f"option {name}={raw!r}: {error}") from None
    try:
        return cls(**kwargs)
    except ValueError as error:
        raise InvalidOptions(str(error)) from None


def options_to_json(options: object) -> dict[str, Any]:
    return dataclasses.asdict(options)  # type: ignore[call-overload, no-any-return]


def describe_options(cls: type[object]) -> list[tuple[str, Any, str]]:
    """(name, default, description) for every option of `cls`."""
    return [(f.name, f.default, f.metadata.get("doc", "")) for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
