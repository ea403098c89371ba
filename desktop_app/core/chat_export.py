"""A chat as Markdown: each question, the quotes from the documents shown above its answer ("From your
documents"), each answer with its notices, and the passages it cites (file, page or section, a warning when a
passage may not support its sentence, the passage verbatim in a fenced block)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .places import place_label
from .storage.store import Store

UNSUPPORTED = "**Check this source:** the passage may not support the sentence that cites it."
OCR = "*Read by OCR from a scan: it may hold recognition errors.*"


def fenced(text: str) -> str:
    """The passage verbatim: its lines, R's "> " prompts and Markdown characters kept as they are. The fence
    is longer than any run of backticks inside, so nothing in the passage can close it (CommonMark)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text.strip(chr(10))}\n{fence}"


EXPORT_ROWS = 20


def _sql_markdown(result: dict) -> list[str]:
    """An answer from tables: the SQL it ran and its first rows as a Markdown table."""
    lines = ["**SQL**", "", "```sql", result["sql"], "```", ""]
    if result.get("sql_error"):
        return lines + [f"The query failed: {result['sql_error']}", ""]
    columns, rows = result.get("columns") or [], result.get("rows") or []
    if columns:
        cell = lambda v: "NULL" if v is None else str(v).replace("|", "\\|")  # noqa: E731
        lines.append("| " + " | ".join(cell(c) for c in columns) + " |")
        lines.append("|" + "---|" * len(columns))
        lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows[:EXPORT_ROWS]]
        if len(rows) > EXPORT_ROWS:
            lines.append(f"\n({len(rows)} rows; the first {EXPORT_ROWS} shown)")
        lines.append("")
    return lines


def _quotes_markdown(quotes: list[dict]) -> list[str]:
    """The sentences the window shows above the answer, each with its file and place, as a Markdown list."""
    lines = ["**From your documents**", ""]
    for quote in quotes:
        c = quote["citation"]
        about = f"**{quote['name']}:** " if quote.get("name") else ""
        number = f"[{c['n']}] " if c.get("n") else ""
        text = " ".join(c.get("text", "").split())
        lines.append(f"- {about}“{text}” ({number}{Path(c['file']).name}, {place_label(c['page'], c.get('kind', 'text'), c.get('section'))})")
    return [*lines, ""] if quotes else []


def chat_to_markdown(store: Store, chat_id: int) -> str:
    title = next((t for i, t, _ in store.chats() if i == chat_id), None)
    if title is None:
        raise KeyError(chat_id)
    lines = [f"# {title}", ""]
    for _, role, content, result_json in store.messages(chat_id):
        if role == "user":
            lines += ["## Question", "", content.strip(), ""]
            continue
        result = json.loads(result_json) if result_json else {}
        lines += _quotes_markdown(result.get("quotes") or [])
        lines += ["### Answer", "", content.strip(), ""]
        for notice in result.get("notices") or []:
            lines += [f"> **Note:** {notice}", ""]
        if result.get("standalone_question") and result.get("standalone_question") != result.get("question"):
            lines += [f"*Searched as:* {result['standalone_question']}", ""]
        if result.get("sql"):
            lines += _sql_markdown(result)
        citations = result.get("citations") or []
        if citations:
            lines += ["**Sources**", ""]
            for c in citations:
                lines.append(f"[{c['n']}] {Path(c['file']).name}, {place_label(c['page'], c.get('kind', 'text'), c.get('section'))}")
                lines.append("")
                if c.get("supported") is False:
                    lines += [UNSUPPORTED, ""]
                if c.get("ocr"):
                    lines += [OCR, ""]
                text = c.get("text", "")
                # A table is quoted row by row, so the export shows it as a Markdown table; text verbatim, fenced.
                lines += ["\n".join("> " + row for row in text.splitlines()) if c.get("kind") == "table" else fenced(text), ""]
    return "\n".join(lines).rstrip() + "\n"
