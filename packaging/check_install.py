"""The install check: the app as `pip install '.[models]'` (not editable) puts it in a virtualenv, used from elsewhere.

    python packaging/check_install.py VENV

VENV is a virtualenv where this checkout was installed with pip (not -e). Everything runs from an empty
folder with a new data folder, so nothing can come from the checkout: the installed CLI imports a PDF
and answers with the tiny model (smollm2-135m); the installed window starts offscreen, imports the
PDF, answers and quits; `desktop-app --install-launcher` writes its menu entry; and PyTorch is not
needed for any of it. `make install-check` makes the virtualenv and runs this. Exits 1 if a step fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

QUESTION = "What is the maximum operating temperature?"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    bin_dir = Path(argv[0]).resolve() / "bin"
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="desktop-app-install-check-") as scratch:
        scratch = Path(scratch)
        env = {k: v for k, v in os.environ.items() if k not in ("DESKTOP_APP_MODELS_DIR", "PYTHONPATH", "VIRTUAL_ENV")}
        env.update(DESKTOP_APP_HOME=str(scratch / "data"), QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(scratch / "xdg"))

        def run(*command: str, timeout: float = 900, **extra: str) -> subprocess.CompletedProcess:
            return subprocess.run(command, cwd=scratch, env={**env, **extra}, capture_output=True, text=True, timeout=timeout)

        def step(name: str, ok: bool, detail: str) -> None:
            print(f"{'ok ' if ok else 'FAILED'}  {name}: {detail}", flush=True)
            if not ok:
                failures.append(name)

        where = run(str(bin_dir / "python"), "-c", "import desktop_app, sys; print(desktop_app.__file__)")
        step("installed, not editable", where.returncode == 0 and "site-packages" in where.stdout, where.stdout.strip() or where.stderr[-400:])
        torch = run(str(bin_dir / "python"), "-c", "import torch")
        step("no PyTorch needed", torch.returncode != 0, "torch is not installed" if torch.returncode else "torch is installed in this virtualenv")
        made = run(str(bin_dir / "python"), "-c", "import sys; from pathlib import Path; from desktop_app.sample_datasheet import write_sample_datasheet; "
                   "print(write_sample_datasheet(Path(sys.argv[1])))", str(scratch / "documents" / "datasheet.pdf"))  # fmt: skip
        pdf = made.stdout.strip()

        cli = str(bin_dir / "desktop-app-cli")
        ingest = run(cli, "ingest", pdf)
        step("CLI imports a PDF", ingest.returncode == 0, (ingest.stdout + ingest.stderr).strip().splitlines()[-1:] or "")
        ask = run(cli, "ask", QUESTION, "--model", "smollm2-135m", "--mode", "rag", "--json")
        try:
            answer = json.loads(ask.stdout)
        except ValueError:
            answer = {}
        sources = answer.get("fused") or []  # the passages the question found
        step("CLI answers from it (tiny model)", ask.returncode == 0 and bool(sources) and bool(answer.get("answer")),
             json.dumps({"answer": str(answer.get("answer", ""))[:160], "sources": len(sources)}) if answer else ask.stderr[-600:])  # fmt: skip

        # The window, in a data folder of its own, told to use the tiny model.
        window_home = scratch / "window-data"
        window_home.mkdir()
        (window_home / "settings.json").write_text(json.dumps({"model": "smollm2-135m"}))
        window = run(str(bin_dir / "desktop-app"), pdf, DESKTOP_APP_HOME=str(window_home), DESKTOP_APP_SMOKE_TEST="1", DESKTOP_APP_SMOKE_QUESTION=QUESTION)
        said = [line for line in window.stdout.splitlines() if line.startswith(("smoke test", "{"))]
        step("window starts offscreen, imports, answers, quits", window.returncode == 0, " / ".join(s[:200] for s in said) or window.stderr[-600:])

        launcher = run(str(bin_dir / "desktop-app"), "--install-launcher")
        entry = scratch / "xdg" / "applications" / "desktop-app.desktop"
        exec_line = next((line for line in entry.read_text().splitlines() if line.startswith("Exec=")), "") if entry.exists() else ""
        step("menu entry installed", launcher.returncode == 0 and str(bin_dir / "desktop-app") in exec_line, exec_line or launcher.stderr[-400:])
    print("install check: " + ("FAILED: " + ", ".join(failures) if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
