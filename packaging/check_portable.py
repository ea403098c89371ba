"""Is this Python's llama.cpp one a bundle can carry to another computer? Run by the Makefile's package venv.

    python packaging/check_portable.py

The bundle's llama.cpp must not need what only the build machine's CPU has. On x86 it is built for x86-64-v3 (the
Makefile's PKG_LLAMA_CMAKE): it must use AVX2 and FMA (without them answers are several times slower) and must not use
AVX-512 or AMX, which many laptops lack (an instruction the CPU lacks kills the app at its first prompt). Exits 1, with
the fix, when the build is not that: a llama-cpp-python installed before, or taken from pip's wheel cache.
"""

from __future__ import annotations

import platform
import re
import sys

NEEDED = ("AVX2", "FMA")
UNPORTABLE = ("AVX512", "AMX")  # prefixes: AVX512_VNNI, AMX_INT8 and the like too


def features(system_info: str) -> dict[str, bool]:
    """`llama_print_system_info`'s "NAME = 1" pairs (the CPU backend's, whatever it prints besides)."""
    return {name: value == "1" for name, value in re.findall(r"([A-Z][A-Z0-9_]*) = (\d+)", system_info)}


def problems(system_info: str, machine: str) -> list[str]:
    """What keeps this build from running well on another x86-64-v3 CPU (nothing is checked on other architectures)."""
    if machine.lower() not in ("x86_64", "amd64"):
        return []
    built = features(system_info)
    lacking = [f"built without {name}" for name in NEEDED if not built.get(name)]
    return lacking + [f"built with {name}" for name in sorted(built) if built[name] and name.startswith(UNPORTABLE)]


def main() -> int:
    import llama_cpp

    info = llama_cpp.llama_print_system_info().decode(errors="replace")
    found = problems(info, platform.machine())
    if found:
        print(f"llama.cpp is not portable ({'; '.join(found)}): {info.strip()}", file=sys.stderr)
        print("Rebuild it: rm -rf build/package-venv && make package", file=sys.stderr)
        return 1
    print(f"llama.cpp is portable: {info.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
