"""Questions about a whole document, answered from its overview instead of a passage search.

An overview (core/document_overview.py) is the document's title, its outline (outline.py: the PDF's own table of
contents, the Word/HTML headings, or headings detected from the type) and, for each section, its most central
sentences (central.py: closest to the section's mean embedding; no LLM, any language). building.py makes one
per document after its meaning index, in the background; storage/overviews.py keeps it in SQLite.

A question naming a document of the library with a whole-document intent ("what is X about", "summarize
chapter 6 of X", "compare A and B", "which of my files covers Z") is recognised by intent.py and answered by
answering.py from the overviews; the short abstract (abstract.py) is written by the local LLM the first time
someone asks about a document, and cached.
"""
