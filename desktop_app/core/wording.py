"""A count and its noun, as a person writes it: "1 page", "2 pages", "1,234 passages". One rule, used by every
message that counts something (the window, the command line, the importer's notices)."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`noun` is the singular; the plural is `plural`, else the noun with an "s"."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def counted_units(n: int, units: str) -> str:
    """A count of `units` given in the plural, as ImportProgress.unit is ("pages", "sections", "rows")."""
    return counted(n, units.removesuffix("s"), units)
