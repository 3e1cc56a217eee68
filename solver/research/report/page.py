"""The page itself: one HTML file holding its style, script and data, asking nothing of any
network (it opens from disk and can be mailed).

The data sits in ``<script type="application/json">`` blocks: the page's own (view, table,
provenance, the shared texts and names) and one per line, which the script parses only when
that line is opened, so a sweep of hundreds of lines opens at once. The script is page.js (the
line view, its charts, the self-check) and one file per other view (sweep.js, review.js).
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from solver.rules import goods as G

from ..landscape import COLS, ITEM_COLOUR, OWNER_COLOUR, TERRAIN_COLOUR, TERRAIN_NAME
from .kinds import Page

HERE = Path(__file__).resolve().parent
# page.js first: it holds the line view and charts the others draw with, and starts the page
SCRIPTS = ("page.js", "sweep.js", "review.js")


def _json(data) -> str:
    """JSON safe inside a script element: no "<" can end it early."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def render(page: Page) -> str:
    """The page as one self-contained HTML document."""
    head = {"view": page.view, "title": page.title, "data": page.data,
            "strings": page.strings.items, "items": page.items, "goods": list(G.NAMES),
            "colours": {"cols": list(COLS), "terrain": TERRAIN_COLOUR,
                        "terrainName": TERRAIN_NAME, "owner": OWNER_COLOUR,
                        "item": ITEM_COLOUR}}
    ok = page.data.get("ok", "NOT verified" not in page.verified and "not confirmed" not in
                       page.verified)
    scripts = "\n".join(f"<script>\n{(HERE / name).read_text()}</script>" for name in SCRIPTS)
    lines = "\n".join(f'<script type="application/json" id="line-{i}">{_json(line)}</script>'
                      for i, line in enumerate(page.lines))
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(page.title)}</title>
<style>
{(HERE / "page.css").read_text()}</style>
</head>
<body>
<header>
<h1>{html.escape(page.title)}</h1>
<p class="verified{'' if ok else ' bad'}">{html.escape(page.verified)}</p>
</header>
<main id="app"><noscript>This page draws itself with its own inline script: allow scripts
to see the line.</noscript></main>
<pre id="selftest" hidden></pre>
<script type="application/json" id="page">{_json(head)}</script>
{lines}
{scripts}
<script>OraReport.start();</script>
</body>
</html>
"""
