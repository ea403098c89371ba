"""An answer's Markdown as safe HTML for the transcript, with its citations made links.

The model's text is untrusted: markdown-it runs with raw HTML off (a `<script>` or `<img>` the model writes
shows as text) and without images or links (nothing is fetched, nothing opens a browser). Citations `[n]`
become `cite:` links outside code, where `[1]` may be code (an index in R or Python), not a citation.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping

from markdown_it import MarkdownIt

CITATION = re.compile(r"\[(\d{1,2})\]")
UNSUPPORTED_COLOR = "#b3261e"
# Inline icons the transcript draws from Qt's standard set (ChatView.loadResource); never a font character.
WARNING_ICON = "icon:warning"
INFO_ICON = "icon:info"

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).disable(["image", "link", "autolink"])
_CODE = re.compile(r"(<pre>.*?</pre>|<code>.*?</code>)", re.DOTALL)


def icon_html(name: str, size: int = 14) -> str:
    return f'<img src="{name}" width="{size}" height="{size}" style="vertical-align:middle">'


def _citation_links(html_text: str, entry_index: int, unsupported: Mapping[int, str] | frozenset[int]) -> str:
    def link(m: re.Match) -> str:
        n = int(m.group(1))
        if n in unsupported:
            return (f'<a href="cite:{entry_index}:{n}" style="text-decoration:none; color:{UNSUPPORTED_COLOR}" '
                    f'title="{html.escape(_why(unsupported, n))}"><b>[{n}]</b>{icon_html(WARNING_ICON, 12)}</a>')
        return f'<a href="cite:{entry_index}:{n}" style="text-decoration:none"><b>[{n}]</b></a>'

    pieces = _CODE.split(html_text)
    # Odd pieces are code (the split keeps the separators): left as written.
    return "".join(piece if i % 2 else CITATION.sub(link, piece) for i, piece in enumerate(pieces))


def _why(unsupported: Mapping[int, str] | frozenset[int], n: int) -> str:
    reason = unsupported.get(n) if isinstance(unsupported, Mapping) else ""
    return f"This passage may not support this sentence: {reason}" if reason else "This passage may not support this sentence"


def answer_html(text: str, entry_index: int, unsupported: Mapping[int, str] | frozenset[int] = frozenset()) -> str:
    """The answer as HTML: Markdown rendered (code in a monospace block), raw HTML escaped, citations linked."""
    rendered = _MARKDOWN.render(text)
    # The language class is of no use to Qt's rich text; dropping it lets the code pattern match every block.
    rendered = re.sub(r"<pre><code[^>]*>", "<pre><code>", rendered)
    return _citation_links(rendered.strip(), entry_index, unsupported)
