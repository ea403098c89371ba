"""A table of named strategies (the modes, the query styles) that other packages may add to.

The eval harness adds its research variants this way; the core never imports it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, Protocol, TypeVar

from .errors import AppError


class Named(Protocol):
    @property
    def name(self) -> str: ...


T = TypeVar("T", bound=Named)


class Registry(Generic[T]):
    def __init__(self, kind: str):
        self.kind = kind  # what an entry is, for the error message: "mode", "query style"
        self._entries: dict[str, T] = {}

    def add(self, entry: T) -> T:
        self._entries[entry.name] = entry
        return entry

    def __getitem__(self, name: str) -> T:
        try:
            return self._entries[name]
        except KeyError:
            raise AppError(f"There is no {self.kind} called '{name}'", hint=f"Use one of {', '.join(self._entries)}.") from None

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)
