"""Draw the pages' PNG icons (192 and 512 px) from ``static/icons/lupus.svg``, once.

The PNGs are committed: run this again only after changing the SVG. It uses the same
system Chromium as the web tests (Playwright), so no image library is needed:
``python scripts/make_icons.py``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "src" / "lupus" / "server" / "static" / "icons"


def main() -> None:
    svg = (ICONS / "lupus.svg").read_text("utf-8")
    chromium = os.environ.get("LUPUS_CHROMIUM") or shutil.which("chromium")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for size in (192, 512):
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                "<style>html,body{margin:0;background:transparent}svg{display:block}</style>"
                + svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            )
            page.screenshot(path=str(ICONS / f"lupus-{size}.png"), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
