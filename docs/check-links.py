#!/usr/bin/env python3
"""Checks the built book offline: every relative link and `#anchor` of every HTML page leads to
a file of the book and an id in it, and every picture, script and stylesheet it names exists.
Links to other sites (https:, mailto:) are not fetched: there is no network to ask.

Usage: check-links.py BOOK_DIR   (exit status 1 and one line per broken link)
"""

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

# Attributes that name another file: links, pictures, scripts, stylesheets, icons.
LINKING = {("a", "href"), ("link", "href"), ("img", "src"), ("script", "src"), ("source", "src"), ("iframe", "src")}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.links = []  # (line, tag, url)

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            if (tag, name) in LINKING:
                self.links.append((self.getpos()[0], tag, value))
            if tag in ("img", "source") and name == "srcset":
                for candidate in value.split(","):
                    if candidate.strip():
                        self.links.append((self.getpos()[0], tag, candidate.split()[0]))


def main(book: Path) -> int:
    pages = {}
    for path in sorted(book.rglob("*.html")):
        if path.name == "404.html" and path.parent == book:
            continue  # for a web server: its links are absolute, from the site's root
        page = Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path.resolve()] = page
    if not pages:
        print(f"{book}: no HTML pages: build the book first")
        return 1
    broken = []
    checked = 0
    for path, page in pages.items():
        for line, tag, url in page.links:
            parts = urlsplit(url)
            if parts.scheme or parts.netloc or url.startswith("//"):
                continue  # another site, mailto:, tel:, data:
            checked += 1
            where = f"{path.relative_to(book.resolve())}:{line}"
            target = path if not parts.path else (path.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if book.resolve() not in target.parents and target != book.resolve():
                broken.append(f"{where}: <{tag}> {url} leads out of the book")
                continue
            if not target.is_file():
                broken.append(f"{where}: <{tag}> {url}: no such file")
                continue
            anchor = unquote(parts.fragment)
            if anchor and target.suffix == ".html" and anchor not in pages[target].ids:
                broken.append(f"{where}: <{tag}> {url}: no id '{anchor}' in {target.name}")
    for line in broken:
        print(line)
    if any("owner/img/" in line for line in broken):
        print("check-links: the panel's screenshots are taken by tests/e2e/docs.test.mjs: run `make docs`")
    print(f"check-links: {len(pages)} pages, {checked} links, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1])))
