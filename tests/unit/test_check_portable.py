"""The package venv's llama.cpp check (packaging/check_portable.py): a native build is refused, a portable one kept."""

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("check_portable", Path(__file__).resolve().parents[2] / "packaging" / "check_portable.py")
check_portable = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_portable)

# As llama_print_system_info prints them: a -march=native build on this project's build machine, and a GGML_NATIVE=OFF one.
NATIVE = "CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | AVX512 = 1 | AVX512_VBMI = 1 | AVX512_VNNI = 1 | AVX512_BF16 = 1 | AMX_INT8 = 1 | LLAMAFILE = 1 | OPENMP = 1 | REPACK = 1 | "
PORTABLE = "CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1 | LLAMAFILE = 1 | OPENMP = 1 | REPACK = 1 | "


def test_a_native_build_is_refused_for_what_other_cpus_lack():
    found = check_portable.problems(NATIVE, "x86_64")
    assert "built with AVX512" in found and "built with AMX_INT8" in found


def test_a_portable_build_passes_and_one_without_avx2_does_not():
    assert check_portable.problems(PORTABLE, "x86_64") == []
    assert check_portable.problems(PORTABLE.replace("AVX2 = 1", "AVX2 = 0"), "x86_64") == ["built without AVX2"]


def test_other_architectures_are_not_judged_by_x86_features():
    assert check_portable.problems("CPU : NEON = 1 | ARM_FMA = 1 | ", "aarch64") == []
