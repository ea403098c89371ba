"""Whatever users drop on the window: each file imports or fails alone with a message saying what to do."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from desktop_app.core.events import AnswerDone
from desktop_app.core.ingest import extraction
from tests.reliability.conftest import REPO, assert_index_matches_sqlite, snapshot, terminal_events

# What the issue names, and what a user must be told. Every other file may import or fail, but only with a clear message.
NAMED_WITHOUT_OCR = {
    "invalid.pdf": ("failed", ["damaged", "re-downloading"]),
    "c03-29.pdf": ("failed", ["no text layer on 1 of 1 page: scanned document", "install tesseract"]),
    "linn.pdf": ("failed", ["no text layer on 1 of 1 page: scanned document", "install tesseract"]),
    "cardinal.pdf": ("failed", ["no text layer on 4 of 4 pages: scanned document", "install tesseract"]),
    "skew.pdf": ("failed", ["no text layer on 1 of 1 page: scanned document", "install tesseract"]),
    "multipage.pdf": ("ready", ["5 of 6 pages have no text layer (scanned); install tesseract for OCR"]),
    "type3_font_nomapping.pdf": ("failed", ["extracts as garbage"]),
    "truetype_font_nomapping.pdf": ("failed", ["extracts as garbage"]),
    "overlay.pdf": ("ready", []),
    "vector.pdf": ("failed", ["no text layer", "install tesseract"]),
    "hugemono.pdf": ("failed", ["no text layer on 1 of 1 page", "install tesseract"]),
    "blank.pdf": ("failed", ["blank", "nothing to import"]),
}
# Files a user must not be left guessing about: these words say what to do next.
ACTIONABLE = ("enter the password", "install tesseract", "try re-saving", "nothing to import", "export it again", "only pdf", "check that", "not a pdf", "scan may be")
RESULTS = REPO / ".cache" / "reliability"


def record(name: str, finals: dict) -> None:
    """Keeps a table of what happened to each file, for the closing note."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    lines = [f"{Path(f).name}\t{e.stage}\t{e.message}" for f, e in sorted(finals.items(), key=lambda kv: Path(kv[0]).name)]
    (RESULTS / name).write_text("\n".join(lines) + "\n")


def check_batch(finals: dict, files: list[Path]) -> None:
    assert set(finals) == {str(f.resolve()) for f in files}, "every file gets exactly one final word"
    for file, event in finals.items():
        assert event.stage in ("ready", "failed"), (file, event)
        if event.stage == "failed":
            text = event.message.lower()
            assert "unexpected error" not in text, (file, event.message)
            assert any(words in text for words in ACTIONABLE), f"{Path(file).name}: '{event.message}' does not say what to do"


def test_ocrmypdf_corpus_without_ocr_each_file_alone(fake_library, datasheet, ocrmypdf_pdfs, monkeypatch):
    monkeypatch.setattr(extraction, "ocr_available", lambda: False)
    list(fake_library.import_paths([datasheet]))
    before = snapshot(fake_library)
    files = list(ocrmypdf_pdfs.values())
    assert len(files) == 42
    finals = terminal_events(fake_library.import_paths(files))
    record("ocrmypdf-without-ocr.tsv", finals)
    check_batch(finals, files)
    for name, (stage, phrases) in NAMED_WITHOUT_OCR.items():
        event = finals[str(ocrmypdf_pdfs[name].resolve())]
        assert event.stage == stage, (name, event)
        for phrase in phrases:
            assert phrase in event.message.lower() or phrase in event.message, (name, event.message)
    # Nothing already imported changed, and failed files left nothing behind.
    docs_before, chunks_before = before
    docs_after, chunks_after = snapshot(fake_library)
    assert docs_after[: len(docs_before)] == docs_before or set(docs_before) <= set(docs_after)
    assert set(chunks_before) <= set(chunks_after)
    ready = {f for f, e in finals.items() if e.stage == "ready"}
    assert {d.path for d in fake_library.documents()} == ready | {str(datasheet.resolve())}
    assert_index_matches_sqlite(fake_library)


# OCR is slow on 2 shared cores: the named scanned files plus the two kinds of non-document; the full corpus with OCR is in the closing note.
OCR_SUBSET = ["c03-29.pdf", "linn.pdf", "blank.pdf", "invalid.pdf"]


@pytest.mark.skipif(not extraction.ocr_available(), reason="tesseract is not installed (make test installs it when run as root)")
def test_scanned_pages_are_ocrd_and_citations_say_so(fake_library, ocrmypdf_pdfs):
    files = [ocrmypdf_pdfs[n] for n in OCR_SUBSET]
    finals = terminal_events(fake_library.import_paths(files))
    record("ocrmypdf-with-ocr-subset.tsv", finals)
    check_batch(finals, files)
    for name in ("c03-29.pdf", "linn.pdf"):
        event = finals[str(ocrmypdf_pdfs[name].resolve())]
        assert event.stage == "ready" and "came from OCR" in event.message, (name, event)
    assert finals[str(ocrmypdf_pdfs["invalid.pdf"].resolve())].stage == "failed"
    assert "blank" in finals[str(ocrmypdf_pdfs["blank.pdf"].resolve())].message
    linn = next(d for d in fake_library.documents() if d.path.endswith("linn.pdf"))
    ocr_flags = fake_library.store.conn.execute("SELECT ocr FROM pages WHERE document_id = ?", (linn.id,)).fetchall()
    assert ocr_flags == [(1,)]
    # linn.pdf is a scanned page; its OCR'd words are searchable and cited as OCR.
    page_text = fake_library.store.page_text(linn.id, 1)
    question = " ".join(page_text.split()[:25])
    # An answer stating the page's own words (one stating nothing the page says is not grounded: not found).
    fake_library.generator().enqueue(" ".join(page_text.split()[:12]) + " [1].")
    events = list(fake_library.ask(question, "rag", [linn.id]))
    result = next(e for e in events if isinstance(e, AnswerDone)).result
    assert result.sources and all(s.passage.ocr for s in result.sources)
    assert result.citations and result.citations[0].ocr


def _encrypted_copy(source: Path, target: Path, user_pw: str, owner_pw: str) -> Path:
    import pymupdf

    with pymupdf.open(source) as doc:
        doc.save(target, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=user_pw, owner_pw=owner_pw, permissions=0)
    return target


def test_password_protected_pdfs(fake_library, datasheet, tmp_path):
    locked = _encrypted_copy(datasheet, tmp_path / "locked.pdf", "s3cret", "owner-pw")
    owner_only = _encrypted_copy(datasheet, tmp_path / "owner-only.pdf", "", "owner-pw")
    finals = terminal_events(fake_library.import_paths([locked, owner_only]))
    assert finals[str(locked)].stage == "failed"
    assert "password protected" in finals[str(locked)].message and "enter the password" in finals[str(locked)].message.lower()
    # An owner password only restricts printing and editing; the text is readable without it.
    assert finals[str(owner_only)].stage == "ready"
    wrong = terminal_events(fake_library.import_paths([locked], passwords={str(locked): "guess"}))
    assert "password" in wrong[str(locked)].message and "wrong" in wrong[str(locked)].message
    right = terminal_events(fake_library.import_paths([locked], passwords={str(locked): "s3cret"}))
    assert right[str(locked)].stage == "ready"
    doc = fake_library.find_document("locked.pdf")
    assert doc.pages == 4 and doc.chunks > 0


def test_damaged_empty_and_impostor_files_fail_alone(fake_library, datasheet, ocrmypdf_pdfs, tmp_path):
    list(fake_library.import_paths([datasheet]))
    before = snapshot(fake_library)
    bad = tmp_path / "bad"
    bad.mkdir()
    real = ocrmypdf_pdfs["tagged.pdf"].read_bytes()
    assert len(real) > 20_000
    (bad / "truncated.pdf").write_bytes(real[:20_000])
    (bad / "empty.pdf").write_bytes(b"")
    (bad / "empty.txt").write_text("")
    (bad / "photo.pdf").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    (bad / "notes.txt").write_text("The quarterly maintenance checklist covers the seals and bearings.")
    finals = terminal_events(fake_library.import_paths([bad]))
    by_name = {Path(f).name: e for f, e in finals.items()}
    assert by_name["notes.txt"].stage == "ready"
    assert by_name["empty.pdf"].stage == "failed" and "is empty" in by_name["empty.pdf"].message
    assert by_name["empty.txt"].stage == "failed" and "is empty" in by_name["empty.txt"].message
    assert by_name["photo.pdf"].stage == "failed" and "not a PDF" in by_name["photo.pdf"].message
    truncated = by_name["truncated.pdf"]
    # MuPDF repairs what it can of a cut-off file; either it imports what is readable or it says the file is damaged.
    assert truncated.stage == "ready" or "damaged" in truncated.message, truncated
    docs_before, chunks_before = before
    assert set(docs_before) <= set(snapshot(fake_library)[0])
    assert set(chunks_before) <= set(snapshot(fake_library)[1])
    assert_index_matches_sqlite(fake_library)


def test_files_that_vanish_or_become_unreadable_mid_batch(fake_library, tmp_path):
    folder = tmp_path / "batch"
    folder.mkdir()
    for n in range(4):
        (folder / f"note{n}.txt").write_text(f"Note number {n} is about pump seal inspection interval {n} weeks.")
    events = []
    for event in fake_library.import_paths([folder]):
        events.append(event)
        if event.stage == "searchable" and event.file.endswith("note0.txt"):  # stored; the others not yet read
            (folder / "note1.txt").unlink()
            # Root can read any file, so "unreadable" is a directory standing where the file was.
            (folder / "note2.txt").unlink()
            (folder / "note2.txt").mkdir()
    finals = {Path(f).name: e for f, e in terminal_events(events).items()}
    assert finals["note0.txt"].stage == "ready" and finals["note3.txt"].stage == "ready"
    assert finals["note1.txt"].stage == "failed" and "no longer exists" in finals["note1.txt"].message
    assert finals["note2.txt"].stage == "failed" and "could not be read" in finals["note2.txt"].message
    assert sorted(Path(d.path).name for d in fake_library.documents()) == ["note0.txt", "note3.txt"]


def test_a_folder_of_a_thousand_small_files(fake_library, tmp_path):
    folder = tmp_path / "many"
    for n in range(1000):
        sub = folder / f"group{n // 100}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"memo{n:04}.txt").write_text(f"Memo {n}: the valve in room {n % 37} was checked by technician {n % 11}.")
    (folder / "group3" / "memo0300.txt").write_text("")  # one bad apple among them
    finals = terminal_events(fake_library.import_paths([folder]))
    assert len(finals) == 1000
    failed = [Path(f).name for f, e in finals.items() if e.stage == "failed"]
    assert failed == ["memo0300.txt"]
    assert len(fake_library.documents()) == 999
    assert_index_matches_sqlite(fake_library)
    hits = fake_library.index.search(fake_library.embedder.embed(["valve room 5 technician 3"])[0], 5)
    assert len(hits) == 5


@pytest.mark.parametrize(
    "text, garbled",
    [
        ("The pump runs at 3000 rpm and must be serviced every six months.", False),
        ("Contents.......................................1\nSeals...........................4", False),
        # An index page of the R manuals: spaced dot leaders once sent 9 of R-intro's 113 pages to OCR.
        ("Appendix D\n!\n! . . . . . . . . . . . . 8\n!= . . . . . . . . . . 9\n%*% . . . . . . . 21\nc . . . . . . 8", False),
        ("12.5  13.0  14.2\n15.1  16.9  18.3\n20.0  21.4  22.8", False),
        ("\ue000\ue001\ue002\ue003 \ue004\ue005\ue006", True),  # private-use code points
        ("\ufffd\ufffd\ufffd \ufffd\ufffd word", True),  # replacement characters
        ('"7+%- )!#$ &*(', True),  # a font without a character map
    ],
)
def test_garbage_text_is_recognised(text, garbled):
    assert extraction.looks_garbled(text) is garbled


PUA_CMAP = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /PUA def "
    b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <41> <5A> <E000> endbfrange "
    b"endcmap CMapName currentdict /CMap defineresource pop end end"
)


def test_a_pdf_whose_text_is_private_use_characters_is_reported_not_indexed(fake_library, datasheet, tmp_path, monkeypatch):
    import pymupdf

    monkeypatch.setattr(extraction, "ocr_available", lambda: False)
    # Letters drawn with a font whose character map points into the private-use area, as some producers write them.
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "ABCD EFGH IJKLM NOPQ", fontsize=12)
    for xref, *_ in page.get_fonts():
        cmap = doc.get_new_xref()
        doc.update_object(cmap, "<<>>")
        doc.update_stream(cmap, PUA_CMAP)
        doc.xref_set_key(xref, "ToUnicode", f"{cmap} 0 R")
    pdf = tmp_path / "codes.pdf"
    doc.save(pdf)
    assert "\ue000" in pymupdf.open(pdf)[0].get_text()
    list(fake_library.import_paths([datasheet]))
    chunks_before = fake_library.store.chunk_count()
    finals = terminal_events(fake_library.import_paths([pdf]))
    event = finals[str(pdf)]
    assert event.stage == "failed" and "garbage" in event.message
    assert [Path(d.path).name for d in fake_library.documents()] == ["px40.pdf"]
    assert fake_library.store.chunk_count() == chunks_before
    if shutil.which("tesseract"):
        # With OCR the rendered letters are read instead of the broken character codes.
        monkeypatch.setattr(extraction, "ocr_available", lambda: True)
        finals = terminal_events(fake_library.import_paths([pdf]))
        assert finals[str(pdf)].stage == "ready" and "OCR" in finals[str(pdf)].message
        doc = fake_library.find_document("codes.pdf")
        assert "ABCD" in fake_library.store.page_text(doc.id, 1)


def test_a_file_that_turns_bad_keeps_its_imported_version(fake_library, datasheet, tmp_path, ocrmypdf_pdfs):
    copy = tmp_path / "manual.pdf"
    shutil.copy(datasheet, copy)
    list(fake_library.import_paths([copy]))
    before = snapshot(fake_library)
    # The file on disk is later overwritten by a broken download: re-importing it fails and keeps the old text.
    copy.write_bytes(ocrmypdf_pdfs["invalid.pdf"].read_bytes())
    finals = terminal_events(fake_library.import_paths([copy]))
    assert finals[str(copy)].stage == "failed" and "damaged" in finals[str(copy)].message
    assert snapshot(fake_library) == before
    assert_index_matches_sqlite(fake_library)
