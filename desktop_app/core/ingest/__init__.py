"""Stage 1, import: files become pages of text (pymupdf, OCR, CSV/Excel), pages become chunks that remember
their file, page and offsets, and the importer stores them and has them embedded."""
