"""What an HTML checker would say of a page, as far as it can be told offline with the
standard library: ids unique and well formed, references that point at an id, no
attribute twice, no form in a form nor a link in a link, end tags that close what is open.
"""

from __future__ import annotations

from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}
# End tags HTML lets a page leave out; closed by what follows, as a browser would.
OPTIONAL_END = {"li", "p", "tr", "td", "th", "option", "thead", "tbody", "tfoot", "dt", "dd",
                "colgroup", "optgroup"}
# Attributes that name one id, or several (space-separated).
ONE_ID = {"for", "list", "form"}
MANY_IDS = {"aria-describedby", "aria-labelledby", "aria-controls", "aria-owns"}
INTERACTIVE = {"a", "button"}
# Elements that close an open paragraph (a </p> after them then closes nothing).
CLOSES_P = {"address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset",
            "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
            "main", "nav", "ol", "p", "pre", "section", "table", "ul"}


class Checker(HTMLParser):
    """Collects the problems of one page."""

    def __init__(self) -> None:
        """An empty page."""
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.ids: dict[str, int] = {}
        self.refs: list[tuple[str, str, int]] = []  # (attribute, id, line)
        self.open: list[str] = []
        self.svg = 0  # inside inline SVG (XML rules: any element may close itself)

    def problem(self, text: str) -> None:
        """Note one problem with its line."""
        self.problems.append(f"line {self.getpos()[0]}: {text}")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Check the attributes and the nesting of an element that opens."""
        names = [name for name, _value in attrs]
        for name in {n for n in names if names.count(n) > 1}:
            self.problem(f"<{tag}> has the attribute {name} twice")
        line = self.getpos()[0]
        for name, value in attrs:
            if name == "id":
                if not value or any(c.isspace() for c in value):
                    self.problem(f"<{tag}> has the id {value!r}")
                elif value in self.ids:
                    self.problem(f"id={value!r} is repeated (first on line {self.ids[value]})")
                else:
                    self.ids[value] = line
            elif name in ONE_ID and value:
                self.refs.append((name, value, line))
            elif name in MANY_IDS and value:
                self.refs += [(name, ref, line) for ref in value.split()]
            elif name == "href" and value and value.startswith("#") and len(value) > 1:
                self.refs.append(("href", value[1:], line))
        if tag == "svg":
            self.svg += 1
        if self.svg:
            self.open.append(tag)
            return
        if tag == "form" and "form" in self.open:
            self.problem("a form inside a form")
        if tag in INTERACTIVE and any(t in INTERACTIVE for t in self.open):
            self.problem(f"<{tag}> inside <{next(t for t in self.open if t in INTERACTIVE)}>")
        if tag in CLOSES_P and self.open and self.open[-1] == "p":
            self.open.pop()  # as a browser does: the paragraph ends here
        if tag in VOID:
            return
        if tag in OPTIONAL_END and self.open and self.open[-1] == tag:
            self.open.pop()  # <li>…<li>: the first is closed by the second
        self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """``<x/>``: fine for void elements and inside SVG, else the element stays open."""
        self.handle_starttag(tag, attrs)
        if self.svg:
            self.open.pop()
            if tag == "svg":
                self.svg -= 1
        elif tag not in VOID:
            self.problem(f"<{tag}/> is not a void element")

    def handle_endtag(self, tag: str) -> None:
        """Close the element, and any left open inside it whose end tag may be left out."""
        if tag in VOID and not self.svg:
            self.problem(f"</{tag}> closes a void element")
            return
        if tag not in self.open:
            self.problem(f"</{tag}> closes nothing" if tag != "p" else
                         "</p> with no <p> open (a block inside a paragraph?)")
            return
        while self.open:
            top = self.open.pop()
            if top == tag:
                break
            if top not in OPTIONAL_END and not self.svg:
                self.problem(f"<{top}> is not closed before </{tag}>")
        if tag == "svg":
            self.svg -= 1

    def finish(self) -> list[str]:
        """Every problem of the page, once it is all read."""
        self.close()
        left = [t for t in self.open if t not in OPTIONAL_END | {"html", "body", "head"}]
        if left:
            self.problems.append(f"never closed: {left}")
        for name, ref, line in self.refs:
            if ref not in self.ids:
                self.problems.append(f"line {line}: {name} points at no id: {ref!r}")
        return self.problems


def problems(html: str) -> list[str]:
    """What is wrong with a page's HTML (empty: nothing this can find)."""
    if not html.lstrip().lower().startswith("<!doctype html>"):
        return ["no <!doctype html>"]
    checker = Checker()
    checker.feed(html)
    return checker.finish()
