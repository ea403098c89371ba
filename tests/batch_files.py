"""What a user drops or keeps in a watched folder, written by the tests as real files (never mocked).

The facts are made up for the tests (a fictional harbour plant), so no test checks anything the app's prompts or
thresholds were tuned on.
"""

from __future__ import annotations

from pathlib import Path

NOTE = "Harbour plant log. The cooling tower fan bearing was replaced in March. " * 20
PUMP = "The PX-9 feed pump runs at 2,900 rpm and its seals are replaced every 4,000 hours."
VALVE = "The relief valve opens at 16 bar; it is tested every spring."


def write_mixed_batch(folder: Path, sections: int) -> list[Path]:
    """A long manual (`sections` passages' worth), a short note and a broken file, in the order a user dropped them."""
    manual, note, broken = folder / "manual.txt", folder / "note.txt", folder / "broken.pdf"
    manual.write_text("\n\n".join(f"Section {n}. The valve assembly {n} is torqued to {n + 10} Nm and inspected yearly." for n in range(sections)))
    note.write_text(NOTE)
    broken.write_text("plain text with a .pdf name")
    return [manual, note, broken]


def ask_about_the_pump(library, generator) -> int:
    """A chat whose saved answer cites pump.txt (of a watched folder); its id."""
    chat = library.create_chat("seals")
    generator.enqueue("Every 4,000 hours [1].")
    list(library.ask_in_chat(chat, "How often are the PX-9 feed pump seals replaced?", "rag"))
    return chat
