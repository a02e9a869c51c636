"""PDF attachments: the file must parse as a PDF (qpdf, through pikepdf, without repairing it) with
nothing after its end, and carry no active content.

A PDF is published as it is and opens in the reader's browser (GitHub Pages sends no
Content-Disposition), so its viewer would run what the file asks for. Every object of the file
(referenced or not) is read and refused when it holds:

- script: a `/JS` or `/JavaScript` entry, a JavaScript name tree;
- actions that run when the file, a page, a field or an annotation is opened or used: `/AA`,
  `/OpenAction` other than "open at this page" (a destination, or a `GoTo` action), and every action
  type but `GoTo`, `Named` (next page, …), `Thread`, `SetOCGState` (layers) and `URI` to an http(s),
  ftp, mailto or news address: `Launch`, `SubmitForm`, `ImportData`, `GoToR` (another file),
  `GoToE`, `Rendition`, `RichMediaExecute`, `JavaScript`, …;
- embedded or attached files (`/EmbeddedFile`, `/EmbeddedFiles`, `/EF`, file-attachment annotations),
  rich media, sound, movie, screen and 3D annotations, PostScript XObjects, and XFA forms.

A PDF that qpdf reads only by repairing it (a broken cross-reference table, a duplicated key) is refused
too: another viewer may read such a file differently. The message names the object and the entry, e.g. `object 12 0: /OpenAction runs JavaScript`.
"""

from __future__ import annotations

import io
import re

ACTIONS_ALLOWED = {"/GoTo", "/Named", "/URI", "/Thread", "/SetOCGState"}  # navigation, links, layers
URI_SCHEMES = ("http://", "https://", "mailto:", "ftp://", "news:")
KEYS_REFUSED = {
    "/JS": "a script (/JS)", "/JavaScript": "JavaScript", "/AA": "additional actions (/AA) that run when it is opened or used",
    "/EmbeddedFile": "an embedded file", "/EmbeddedFiles": "embedded files", "/EF": "an embedded file (/EF)",
    "/XFA": "an XFA form (scripts)", "/RichMediaContent": "rich media", "/RichMediaSettings": "rich media",
}
SUBTYPES_REFUSED = {"/FileAttachment": "a file attachment", "/RichMedia": "rich media", "/Sound": "a sound", "/Movie": "a movie",
                    "/Screen": "a screen annotation (media)", "/3D": "a 3D annotation (scripts)", "/PS": "PostScript"}
_HEADER = re.compile(rb"%PDF-[12]\.[0-9][\r\n \t%]")
_STREAM = re.compile(r"(?:stream )?<_io\.BytesIO object at 0x[0-9a-f]+>")
_TAIL = re.compile(rb"%%EOF[\r\n \t\x00]*\Z")


def problem(data: bytes) -> tuple[str, bool] | None:
    """Why this PDF may not be published (one line) and whether that is active content, or None."""
    import pikepdf

    if not _HEADER.match(data):
        return "does not start with a PDF header line (%PDF-1.x)", False
    if not _TAIL.search(data[-1024:]):
        return "does not end with %%EOF: data after the end of the PDF (or a cut file) is refused", False
    try:
        pdf = pikepdf.open(io.BytesIO(data), attempt_recovery=False)
    except pikepdf.PasswordError:
        return "is encrypted with a password: it cannot be checked", False
    except Exception as exc:  # noqa: BLE001 - qpdf reports every parse failure with its own exception types
        return f"does not parse as a PDF ({_short(exc)})", False
    with pdf:
        try:
            root_open = pdf.Root.get("/OpenAction")
            if root_open is not None and not _is_destination(root_open):
                return f"/OpenAction {_what_action(root_open)}: only 'open at a page' is allowed", True
            for obj in pdf.objects:
                found = _active(obj)
                if found:
                    return f"object {obj.objgen[0]} {obj.objgen[1]}: {found}: active content is refused", True
            if warnings := pdf.get_warnings():  # qpdf repaired something: another viewer may read it otherwise
                return f"does not parse without repair ({_short(Exception(warnings[0]))})", False
        except Exception as exc:  # noqa: BLE001 - an object that cannot be read is a PDF that does not parse
            return f"does not parse as a PDF ({_short(exc)})", False
    return None


def _short(exc: Exception) -> str:
    text = " ".join(_STREAM.sub("the file", str(exc)).split()).removeprefix("the file: ").removeprefix("the file ")
    return text if len(text) <= 160 else text[:160] + "…"


def _is_destination(value) -> bool:
    import pikepdf

    if isinstance(value, pikepdf.Array):
        return True  # [page /Fit]: open at a page
    if isinstance(value, pikepdf.Dictionary):
        return value.get("/S") == "/GoTo" and "/Next" not in value
    return False


def _what_action(value) -> str:
    import pikepdf

    if isinstance(value, pikepdf.Dictionary) and "/S" in value:
        kind = str(value.get("/S"))
        return "runs JavaScript" if kind == "/JavaScript" else f"runs a {kind[1:]} action"
    return "is not a destination"


def _action_problem(action, depth: int = 0) -> str | None:
    """What an action dictionary (the value of /A or /Next) runs, when that is not allowed."""
    import pikepdf

    if isinstance(action, pikepdf.Array):  # a /Next list of actions
        for a in list(action)[:64]:
            if (found := _action_problem(a, depth + 1)) is not None:
                return found
        return None
    if not isinstance(action, pikepdf.Dictionary) or depth > 64:
        return "an action that cannot be read" if depth > 64 else None
    kind = str(action.get("/S", ""))
    if kind not in ACTIONS_ALLOWED:
        return "a JavaScript action" if kind == "/JavaScript" else f"a {kind[1:] or 'typeless'} action"
    if kind == "/URI":
        uri = action.get("/URI")
        text = bytes(uri).decode("latin-1", "replace").strip().lower() if isinstance(uri, pikepdf.String) else ""
        if not text.startswith(URI_SCHEMES):
            return f"a link to {text[:40]!r} (only http, https, ftp, mailto and news links are allowed)"
    if "/Next" in action:
        return _action_problem(action.get("/Next"), depth + 1)
    return None


def _active(node) -> str | None:
    """What active content a PDF object holds (its direct children included), or None."""
    import pikepdf

    if isinstance(node, pikepdf.Stream):
        node = node.stream_dict
    if isinstance(node, pikepdf.Dictionary):
        for key in node.keys():
            if key in KEYS_REFUSED:
                return KEYS_REFUSED[key]
        if node.get("/Type") == "/EmbeddedFile":
            return "an embedded file"
        sub = node.get("/Subtype")
        if isinstance(sub, pikepdf.Name) and str(sub) in SUBTYPES_REFUSED:
            return SUBTYPES_REFUSED[str(sub)]
        if "/A" in node and (found := _action_problem(node.get("/A"))) is not None:  # links, outline items, form fields
            return found
        if "/OpenAction" in node and not _is_destination(node.get("/OpenAction")):
            return f"/OpenAction {_what_action(node.get('/OpenAction'))}"
        children = list(node.values())
    elif isinstance(node, pikepdf.Array):
        children = list(node)
    else:
        return None
    for child in children:
        if isinstance(child, (pikepdf.Dictionary, pikepdf.Array, pikepdf.Stream)) and not child.is_indirect:
            found = _active(child)
            if found:
                return found
    return None
