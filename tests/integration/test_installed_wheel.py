"""`pip install .` gives a working app: the wheel carries the model catalog (the repository's top-level models/)
and the tokenizer, the icons and the desktop entry (resources/), and the installed code finds them with no
repository around it.

The full check with every dependency in a clean virtualenv (the window and the CLI answering) is
`make install-check` (packaging/check_install.py); this test builds the real wheel and runs it from a
folder of its own, with the dependencies of the test environment.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # No build isolation: setuptools is in this environment, and the test needs no network.
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(REPO)],
                   check=True, capture_output=True, timeout=600, cwd=out)  # fmt: skip
    return next(out.glob("desktop_app-*.whl"))


def test_the_wheel_carries_the_files_the_app_loads_at_run_time(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    # The repository's top-level models/ and resources/, inside the package (setup.py maps them).
    for needed in ("desktop_app/models/catalog.json", "desktop_app/resources/all-minilm-l6-v2-tokenizer.json",
                   "desktop_app/resources/desktop-app.png", "desktop_app/resources/desktop-app.svg",
                   "desktop_app/resources/desktop-app.desktop"):  # fmt: skip
        assert needed in names, f"{needed} is missing from the wheel"
    # Nothing lands beside the package in site-packages, and a GGUF a user dropped into models/ stays out.
    assert {n.split("/")[0] for n in names} <= {"desktop_app", *(n.split("/")[0] for n in names if ".dist-info/" in n)}
    assert not [n for n in names if n.endswith(".gguf")]


INSTALLED_APP = r"""
import json, sys
import desktop_app
from desktop_app.assets import DESKTOP_ENTRY, ICON_PNG
from desktop_app.core.models.catalog import load_catalog
from desktop_app.core.models.model_files import open_embedder
from desktop_app.core.storage import paths
catalog = load_catalog()
embedder = open_embedder("", catalog)
vector = embedder.embed(["Where is the pump's maximum temperature given?"])
print(json.dumps({"package": desktop_app.__file__, "llms": [e.name for e in catalog.llms], "embedder": embedder.name,
                  "tokenizer": str(embedder.tokenizer_file), "dimension": int(vector.shape[1]),
                  "icon": ICON_PNG.is_file() and str(ICON_PNG), "entry": DESKTOP_ENTRY.is_file(),
                  "checkout_models": str(paths.CHECKOUT_MODELS_DIR)}))
"""


def test_the_installed_app_finds_its_catalog_embedder_and_icon_outside_the_repository(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(target), DESKTOP_APP_HOME=str(tmp_path / "data"))
    run = subprocess.run([sys.executable, "-c", INSTALLED_APP], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["package"].startswith(str(target))  # the installed copy, not this checkout
    assert "smollm2-135m" in seen["llms"] and seen["embedder"] == "all-minilm-l6-v2-int8" and seen["dimension"] == 384
    assert seen["tokenizer"].startswith(str(target)) and seen["icon"].startswith(str(target)) and seen["entry"]
    assert seen["checkout_models"] == "None"  # user GGUFs live in the data folder, not beside site-packages
    cli = subprocess.run([sys.executable, "-m", "desktop_app.cli", "models", "list"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0 and "qwen2.5-coder-1.5b" in cli.stdout, cli.stderr[-2000:]



EDITABLE_APP = r"""
import json, site, sys
site.addsitedir(sys.argv[1])  # runs the editable install's .pth, as a virtualenv's site-packages would
import desktop_app
from desktop_app.assets import ICON_PNG
from desktop_app.core.models.catalog import CATALOG_FILE, load_catalog
print(json.dumps({"package": desktop_app.__file__, "icon": str(ICON_PNG), "icon_found": ICON_PNG.is_file(),
                  "catalog": str(CATALOG_FILE), "llms": [e.name for e in load_catalog().llms]}))
"""

BUILD_EDITABLE = "import sys; from setuptools import build_meta; print(build_meta.build_editable(sys.argv[1]))"


def test_an_editable_install_reads_the_top_level_models_and_resources(tmp_path):
    """`make run` installs the checkout editable (PEP 660): the app then reads models/ and resources/ where they are.

    The editable wheel is built by setuptools' own hook and installed into a folder of its own; a bare Python
    (-S: no other site-packages, so no other checkout's editable install) runs it."""
    out, site_dir = tmp_path / "wheel", tmp_path / "site"
    built = subprocess.run([sys.executable, "-c", BUILD_EDITABLE, str(out)], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site_dir), str(out / built.stdout.split()[-1])],
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"DESKTOP_APP_HOME": str(tmp_path / "data")}
    bare = getattr(sys, "_base_executable", sys.executable)
    run = subprocess.run([bare, "-S", "-c", EDITABLE_APP, str(site_dir)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["package"] == str(REPO / "desktop_app" / "__init__.py")
    assert seen["icon"] == str(REPO / "resources" / "desktop-app.png") and seen["icon_found"]
    assert seen["catalog"] == str(REPO / "models" / "catalog.json") and "qwen2.5-coder-1.5b" in seen["llms"]
