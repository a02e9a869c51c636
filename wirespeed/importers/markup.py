"""HTML and XML from tool files, read in bounded work: never rendered, expanded or followed.

- `unclosed_tag`: one linear scan of an HTML page before html.parser sees it. The standard
  library's parser rescans the rest of the page for every tag left open (`<a <a <a …`: minutes for
  200 KB); a page where a tag, comment or declaration is not closed before the next one opens is
  refused at the first such place instead, so the parser only ever sees closed tags.
- `parse_xml`: XML through defusedxml (no DTD, no entity, no external reference), with the depth
  and the number of elements counted while parsing (limits xml_depth, xml_elements).
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from wirespeed.problems import Problem
from wirespeed.resultset import limits

# One closed token at a "<": a comment, a declaration or processing instruction, or a tag whose
# attribute values are quoted or plain (no "<" outside quotes). Possessive: each match is linear.
_TOKEN = re.compile(r"""<!--.*?-->|<![^<>]*+>|<\?[^<>]*+>|</?[A-Za-z][^\s/<>"'=]*+(?:[^<>"']++|"[^"]*+"|'[^']*+')*+>""", re.S)
_OPEN = re.compile(r"<[A-Za-z/!?]")
_RAW_TEXT = re.compile(r"<(script|style)\b", re.I)


def unclosed_tag(text: str, file: str, rule: str) -> Problem | None:
    """The first tag, comment or declaration of an HTML page that is not closed, as one problem; None
    when every one is. Text inside <script> and <style> is skipped to its end tag."""
    pos = 0
    while (m := _OPEN.search(text, pos)) is not None:
        tok = _TOKEN.match(text, m.start())
        if tok is None:
            line = text.count("\n", 0, m.start()) + 1
            shown = text[m.start(): m.start() + 20].split("\n")[0]
            return Problem(file, line, "", f"a tag that is not closed ({shown!r}…): expected every tag, comment and declaration closed by '>'", rule)
        pos = tok.end()
        raw = _RAW_TEXT.match(tok.group())
        if raw:
            end = re.compile(rf"</{raw.group(1)}\s*>", re.I).search(text, pos)
            if end is None:
                line = text.count("\n", 0, m.start()) + 1
                return Problem(file, line, "", f"<{raw.group(1)}> is not closed: expected </{raw.group(1)}>", rule)
            pos = end.end()
    return None


def parse_xml(data: bytes, file: str, rule: str) -> tuple[ET.Element | None, list[Problem]]:
    """The root element of an XML document, or one problem: not well-formed (with its line), a DTD or
    entity (never expanded), or deeper or larger than the limits. Bounded by the file's size limit,
    which the caller has checked."""
    depth_limit, count_limit = limits.value("xml_depth"), limits.value("xml_elements")
    depth = count = 0
    root = None
    try:
        for event, elem in iterparse(io.BytesIO(data), events=("start", "end"), forbid_dtd=True, forbid_entities=True, forbid_external=True):
            if event == "start":
                depth += 1
                count += 1
                root = elem if root is None else root
                if depth > depth_limit:
                    return None, [Problem(file, None, "", f"XML elements nested deeper than the limit of {limits.describe('xml_depth')}", "limit.depth")]
                if count > count_limit:
                    return None, [Problem(file, None, "", f"more XML elements than the limit of {limits.describe('xml_elements')}", "limit.xml-elements")]
            else:
                depth -= 1
    except ET.ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        return None, [Problem(file, line, "", f"not well-formed XML: {str(exc).split(':')[0]}", rule)]
    except DefusedXmlException as exc:
        return None, [Problem(file, None, "", f"XML with a DTD, entity or external reference ({type(exc).__name__}): refused, never expanded", rule)]
    if root is None:
        return None, [Problem(file, None, "", "empty: no XML element", rule)]
    return root, []
