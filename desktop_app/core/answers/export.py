"""A chat as Markdown: each question, each answer, and the passages it cites (file, page or section, quoted text)."""

from __future__ import annotations

import json
from pathlib import Path

from ..places import place_label
from ..storage.store import Store

QUOTE_CHARS = 500


def _quote(text: str) -> str:
    text = " ".join(text.split())
    if len(text) > QUOTE_CHARS:
        text = text[:QUOTE_CHARS].rsplit(" ", 1)[0] + " ..."
    return "> " + text


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


def chat_to_markdown(store: Store, chat_id: int) -> str:
    title = next((t for i, t, _ in store.chats() if i == chat_id), None)
    if title is None:
        raise KeyError(chat_id)
    lines = [f"# {title}", ""]
    for _, role, content, result_json in store.messages(chat_id):
        if role == "user":
            lines += ["## Question", "", content.strip(), ""]
            continue
        lines += ["### Answer", "", content.strip(), ""]
        result = json.loads(result_json) if result_json else {}
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
                text = c.get("text", "")
                # A table is quoted row by row, so the export shows it as a Markdown table.
                lines.append("\n".join("> " + row for row in text.splitlines()) if c.get("kind") == "table" else _quote(text))
                lines.append("")
    return "\n".join(lines).rstrip() + "\n"
