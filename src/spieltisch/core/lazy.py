"""Packages that name their modules' classes but import each module on first use."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, homes: Mapping[str, Sequence[str]]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package` that imports each name of `homes` (module: names)
    from its module when it is first asked for."""
    home_of = {name: module for module, names in homes.items() for name in names}

    def attribute(name: str) -> Any:
        if name not in home_of:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{home_of[name]}"), name)

    return attribute
