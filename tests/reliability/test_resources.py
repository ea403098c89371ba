"""Bounded memory on huge pages, and the password given on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app.core.ingest import extraction
from tests.reliability.conftest import REPO, subprocess_env

MEASURE = """
import json, resource, sys
from pathlib import Path
from desktop_app.core.ingest import extraction
from desktop_app.core.errors import AppError
extraction.ocr_available = lambda: sys.argv[2] == "ocr"
try:
    doc = extraction.extract(Path(sys.argv[1]))
    outcome = {"stage": "ready", "text": " ".join(p.text for p in doc.pages), "ocr": [p.ocr for p in doc.pages]}
except AppError as exc:
    outcome = {"stage": "failed", "message": exc.user_message()}
# VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec, so a child of a big pytest process
# would report the parent's size (2.8 GB once the LLM is loaded) instead of its own peak.
hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM:")]
outcome["peak_mb"] = int(hwm[0].split()[1]) / 1024 if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(outcome))
"""
# A 35000x35000 page rendered at the OCR resolution would be a 1.6 GB pixmap before Tesseract even starts.
PEAK_LIMIT_MB = 700


def extract_in_subprocess(pdf: Path, mode: str, home: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", MEASURE, str(pdf), mode], capture_output=True, text=True, env=subprocess_env(home), cwd=REPO, timeout=600)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    (REPO / ".cache" / "reliability").mkdir(parents=True, exist_ok=True)
    (REPO / ".cache" / "reliability" / f"hugemono-{mode}.json").write_text(json.dumps(result))
    return result


@pytest.mark.skipif(not extraction.ocr_available(), reason="tesseract is not installed (make test installs it when run as root)")
def test_hugemono_is_ocrd_within_bounded_memory(ocrmypdf_pdfs, tmp_path):
    result = extract_in_subprocess(ocrmypdf_pdfs["hugemono.pdf"], "ocr", tmp_path)
    assert result["stage"] == "ready" and result["ocr"] == [True]
    assert "image" in result["text"].lower()  # "This is a very big image with a tiny amount of text."
    assert result["peak_mb"] < PEAK_LIMIT_MB, result["peak_mb"]


def test_hugemono_without_ocr_says_what_to_do_within_bounded_memory(ocrmypdf_pdfs, tmp_path):
    result = extract_in_subprocess(ocrmypdf_pdfs["hugemono.pdf"], "plain", tmp_path)
    assert result["stage"] == "failed" and "install tesseract" in result["message"].lower()
    assert result["peak_mb"] < PEAK_LIMIT_MB, result["peak_mb"]


def test_ocr_resolution_is_capped_by_page_area():
    class Page:
        def __init__(self, w, h):
            import pymupdf

            self.rect = pymupdf.Rect(0, 0, w, h)

    assert extraction.ocr_dpi(Page(612, 792)) == extraction.OCR_DPI  # a letter page gets the full resolution
    huge = Page(8400, 8400)
    dpi = extraction.ocr_dpi(huge)
    assert (8400 / 72 * dpi) ** 2 <= extraction.OCR_MAX_PIXELS


@pytest.mark.integration
def test_cli_password_flag_opens_protected_pdfs(tmp_path):
    import pymupdf

    from desktop_app.sample_datasheet import write_sample_datasheet

    folder = tmp_path / "docs"
    source = write_sample_datasheet(tmp_path / "plain.pdf")
    folder.mkdir()
    with pymupdf.open(source) as doc:
        doc.save(folder / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="s3cret", owner_pw="owner")
    home = tmp_path / "home"
    cli = [sys.executable, "-m", "desktop_app.cli", "ingest"]
    denied = subprocess.run(cli + [str(folder)], capture_output=True, text=True, env=subprocess_env(home), cwd=REPO, timeout=600)
    assert denied.returncode == 1
    assert "locked.pdf is password protected" in denied.stdout and "--password" in denied.stdout
    # The password applies to protected files inside a folder too.
    opened = subprocess.run(cli + [str(folder), "--password", "s3cret"], capture_output=True, text=True, env=subprocess_env(home), cwd=REPO, timeout=600)
    assert opened.returncode == 0, opened.stdout + opened.stderr
    assert "ready    locked.pdf: 4 pages" in opened.stdout
