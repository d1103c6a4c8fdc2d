"""The documentation stays whole: every relative link in README.md, SECURITY.md and docs/*.md points to a file of
this repository that exists, and a link's #anchor to a heading of that file (GitHub's heading ids); every page
under docs/ is reachable from the README's table of contents. Reads files only: no build, no server."""
import re
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "SECURITY.md", *(ROOT / "docs").glob("*.md")])
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)=\"([^\"]+)\"", re.I)
CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def prose_lines(text):
    """The lines of `text` outside fenced code blocks, each with its line number."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def slug(heading):
    """GitHub's id for a heading: the text without its Markdown, lower-cased, punctuation but - and _ dropped,
    spaces as -."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = CODE_SPAN.sub(lambda match: match.group(2), text)
    text = re.sub(r"<[^>]+>", "", text).replace("*", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    """Every heading id of the Markdown file at `path` (a repeated heading gets -1, -2 …), and explicit ids."""
    ids, seen = set(), {}
    text = path.read_text()
    for _, line in prose_lines(text):
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            ids.add(base if count == 0 else f"{base}-{count}")
    ids.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", text))
    return ids


def relative_links(path):
    """(line number, target) of every link in `path` that is not to another site or a mail address."""
    links = []
    for number, line in prose_lines(path.read_text()):
        line = CODE_SPAN.sub("", line)
        for target in INLINE_LINK.findall(line) + HTML_LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue
            links.append((number, target))
    return links


def broken_links(path):
    """Each link of `path` that names a missing file, a path outside the repository, or a missing heading."""
    broken = []
    for number, target in relative_links(path):
        file_part, _, anchor = target.partition("#")
        destination = (path.parent / unquote(file_part)).resolve() if file_part else path
        where = f"{path.relative_to(ROOT)}:{number}: {target}"
        if not destination.is_relative_to(ROOT):
            broken.append(f"{where}: outside the repository")
        elif not destination.exists():
            broken.append(f"{where}: no file {destination.relative_to(ROOT)}")
        elif anchor and destination.suffix == ".md" and unquote(anchor) not in anchors(destination):
            broken.append(f"{where}: no heading #{anchor} in {destination.relative_to(ROOT)}")
    return broken


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_points_to_an_existing_file_and_heading(document):
    broken = broken_links(document)
    assert not broken, "\n".join(broken)


def test_every_page_under_docs_is_in_the_readme_table_of_contents():
    linked = {(ROOT / target.partition("#")[0]).resolve() for _, target in relative_links(ROOT / "README.md")}
    orphans = [page.relative_to(ROOT) for page in (ROOT / "docs").glob("*.md") if page.resolve() not in linked]
    assert not orphans, f"not linked from README.md: {orphans}"


def test_the_checker_finds_what_it_must(tmp_path, monkeypatch):
    """The checker itself: a missing file, a missing heading and a path out of the tree are reported; code, other
    sites and good links are not."""
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/b.md").write_text("# B\n\n## The `key` table (every key)\n\n## Twice\n\n## Twice\n")
    page = tmp_path / "docs/a.md"
    page.write_text("# A\n\n[ok](b.md#the-key-table-every-key) [ok](b.md#twice-1) [ok](#a) [web](https://x.example/y)\n"
                    "[gone](c.md) [no heading](b.md#nothing) [out](../../etc/passwd) `[code](d.md)`\n"
                    "```\n[fenced](e.md)\n```\n<img src=\"f.png\">\n")
    assert broken_links(page) == [
        "docs/a.md:4: c.md: no file docs/c.md",
        "docs/a.md:4: b.md#nothing: no heading #nothing in docs/b.md",
        "docs/a.md:4: ../../etc/passwd: outside the repository",
        "docs/a.md:8: f.png: no file docs/f.png",
    ]
