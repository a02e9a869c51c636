"""A valid result set whose every free-text field carries script, markup, shortcodes, Go templates,
LaTeX and spreadsheet formulas, made at test time from the small example cisco-7600-osm-acl-2001."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from conftest import ARCHIVE

BASE = "cisco-7600-osm-acl-2001"
SLUG = "hostile-acme-9000-2020"
MARK = "__wirespeedPwned"
PAYLOAD = (f"<script>window.{MARK}=1;alert(1)</script> <img src=x onerror=\"window.{MARK}=2;alert(2)\"> "
           '{{< result-table "x" >}} {{ .Site.Params }} {{ readFile "/etc/passwd" }} '
           r"\input{/etc/passwd} \write18{touch /tmp/wirespeed-pwned} [x](javascript:alert(3))")
# Pieces that must show as literal text wherever the payload is shown.
LITERALS = [f"<script>window.{MARK}=1;alert(1)</script>", "{{ readFile \"/etc/passwd\" }}", "{{ .Site.Params }}",
            '{{< result-table "x" >}}', r"\input{/etc/passwd}", r"\write18{touch /tmp/wirespeed-pwned}", "[x](javascript:alert(3))"]
FORMULAS = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "@SUM(1+1)"]


def _t(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def make(root: Path) -> Path:
    """Write the hostile set into root/SLUG; returns its folder."""
    dest = root / SLUG
    shutil.copytree(ARCHIVE / BASE, dest)
    toml = dest / "result.toml"
    s = toml.read_text(encoding="utf-8")
    s = s.replace(f'slug = "{BASE}"', f'slug = "{SLUG}"')
    p = _t(PAYLOAD)
    # Top-level and table fields: title, summary, notes, descriptions, transcribed_from, document, location.
    for key in ("title", "summary", "notes", "description", "transcribed_from", "document", "location", "chassis"):
        s = re.sub(rf'(?m)^{key} = "(.*)"$', lambda m, key=key: f"{key} = " + _t(f"{m.group(1)} {PAYLOAD}"), s)
    s = s.replace('vendor = "Cisco"', f"vendor = {_t('Acme ' + PAYLOAD)}")
    s = s.replace('model = "7600 Internet Router"', f"model = {_t('9000 ' + PAYLOAD)}")
    s = s.replace('idle = "no test traffic"', f"idle = {_t('no test traffic ' + PAYLOAD)}")
    s = s.replace('labels = ["No ACLs", "15K ACL entries"]', f"labels = [{_t('No ACLs ' + PAYLOAD)}, {_t('15K ' + PAYLOAD)}]")
    s = s.replace('tags = ["wan", "pos", "acl", "smartbits"]', 'tags = ["wan", "pos", "acl", "smartbits", "script"]')
    s = s.replace('measurements = ["baseline.csv", "packet-filtering.csv", "cpu.csv"]',
                  'measurements = ["baseline.csv", "packet-filtering.csv", "cpu.csv"]\n'
                  f'attachments = [{{path = "raw/hostile.txt", title = {_t("Notes " + PAYLOAD)}}}, '
                  f'{{path = "raw/formulas.csv", title = {_t("Formulas " + PAYLOAD)}}}]')
    toml.write_text(s, encoding="utf-8")
    cpu = dest / "cpu.csv"
    c = cpu.read_text(encoding="utf-8")
    c = c.replace(",NMP,", ',"=HYPERLINK(""http://x"",""y"")",').replace(",MSFC2,", ",@SUM(1+1),")
    cpu.write_text(c, encoding="utf-8")
    (dest / "raw").mkdir()
    (dest / "raw" / "hostile.txt").write_text(f"{PAYLOAD}\n<html><body><script>window.{MARK}=3;alert(4)</script></body></html>\n", encoding="utf-8")
    (dest / "raw" / "formulas.csv").write_text('name,value\n"=HYPERLINK(""http://x"",""y"")",1\n"+cmd|\' /C calc\'!A0",-5\n@SUM(1+1),+3.2\n', encoding="utf-8")
    return dest
