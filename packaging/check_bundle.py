"""The package check: run the built one-folder app as a person would, and measure it.

    python packaging/check_bundle.py dist/desktop-app [--launches 5] [--json FILE]

Run by `make package-check` after `packaging/build.sh` (not part of `make test`: the build takes many
minutes). Each run uses a new data folder and no DESKTOP_APP_MODELS_DIR, as on a user's machine:

1. start-up: launch to usable window (the first turn of the event loop after the window showed), offscreen;
2. import a PDF given on the command line and ask a question in the window, answered by the tiny model
   (smollm2-135m, named by its GGUF path in the data folder's settings), then quit;
3. the default models: the window loads the bundled embedder and the bundled default GGUF, which must be
   used where it lies (nothing assembled into the data folder).

Prints the bundle's size (and its largest parts) and the timings; exits 1 if any step fails.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUESTION = "What is the maximum operating temperature?"
USABLE = "smoke test: window usable"


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def largest_parts(bundle: Path, count: int = 8) -> list[tuple[str, int]]:
    inner = bundle / "_internal" if (bundle / "_internal").is_dir() else bundle
    sizes = [(p.name, folder_size(p) if p.is_dir() else p.stat().st_size) for p in inner.iterdir()]
    return sorted(sizes, key=lambda s: -s[1])[:count]


def run_app(exe: Path, home: Path, env_extra: dict[str, str], args: list[str] = (), timeout: float = 900) -> tuple[int, str, float]:
    env = {k: v for k, v in os.environ.items() if k not in ("DESKTOP_APP_MODELS_DIR", "DESKTOP_APP_SMOKE_QUESTION")}
    env.update(DESKTOP_APP_HOME=str(home), QT_QPA_PLATFORM="offscreen", **env_extra)
    started = time.perf_counter()
    proc = subprocess.run([str(exe), *args], env=env, capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout + proc.stderr, time.perf_counter() - started


def tiny_model_path() -> Path:
    from desktop_app.core.models.model_files import resolve_llm

    return resolve_llm("smollm2-135m")  # a file inside its package, nothing to assemble


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle", type=Path, nargs="?", default=ROOT / "dist" / "desktop-app")
    parser.add_argument("--launches", type=int, default=5, help="launches timed to a usable window")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args(argv)
    exe = args.bundle / "desktop-app"
    if not exe.is_file():
        print(f"no bundle at {exe}: build it first with packaging/build.sh", file=sys.stderr)
        return 1
    from desktop_app.sample_datasheet import write_sample_datasheet

    results: dict = {"bundle": str(args.bundle), "size_bytes": folder_size(args.bundle), "largest": largest_parts(args.bundle)}
    print(f"bundle: {args.bundle}  {results['size_bytes'] / 1e9:.2f} GB")
    for name, size in results["largest"]:
        print(f"  {size / 1e6:9.1f} MB  {name}")
    failures = []
    with tempfile.TemporaryDirectory(prefix="desktop-app-package-check-") as scratch:
        scratch = Path(scratch)

        # 1. launch to a usable window, each launch with a fresh data folder
        launches = []
        for n in range(args.launches):
            code, out, seconds = run_app(exe, scratch / f"launch{n}", {"DESKTOP_APP_SMOKE_TEST": "window"}, timeout=300)
            if code != 0 or USABLE not in out:
                failures.append(f"launch {n} did not show a usable window (exit {code}): {out[-600:]}")
                break
            launches.append(seconds)
            print(f"  launch {n}: window usable after {seconds:.2f} s", flush=True)
        results["launch_s"] = launches
        if launches:
            print(f"start-up: first {launches[0]:.2f} s, median {statistics.median(launches):.2f} s of {len(launches)}")

        # 2. import a PDF and ask, with the tiny model
        home = scratch / "ask"
        home.mkdir()
        (home / "settings.json").write_text(json.dumps({"model": str(tiny_model_path())}))
        pdf = write_sample_datasheet(scratch / "documents" / "datasheet.pdf")
        code, out, seconds = run_app(exe, home, {"DESKTOP_APP_SMOKE_TEST": "1", "DESKTOP_APP_SMOKE_QUESTION": QUESTION}, [str(pdf)])
        answer = next((json.loads(line) for line in out.splitlines() if line.startswith("{")), None)
        results["ask"] = {"exit": code, "seconds": seconds, "report": answer}
        print(f"import + ask (tiny model): exit {code} after {seconds:.1f} s; {json.dumps(answer)[:400] if answer else out[-600:]}")
        if code != 0 or not answer or not answer["sources"]:
            failures.append("the bundle did not answer from the imported PDF")

        # 3. the bundled default models load, and the GGUF is used where it lies
        home = scratch / "default-models"
        code, out, seconds = run_app(exe, home, {"DESKTOP_APP_SMOKE_TEST": "1"})
        assembled = sorted(p.name for p in (home / "models").glob("*.gguf*")) if (home / "models").is_dir() else []
        results["default_models"] = {"exit": code, "seconds": seconds, "assembled": assembled}
        print(f"default models: exit {code} after {seconds:.1f} s; {[l for l in out.splitlines() if 'smoke test' in l]}")
        if code != 0:
            failures.append(f"the bundled default models did not load: {out[-600:]}")
        if assembled:
            failures.append(f"the bundle assembled its GGUF again into the data folder: {assembled}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    print("package check: " + ("FAILED" if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
