"""The compare page in Chromium at 390 px and 1366 px, light and dark: comparing the Nexus 9516 and the Catalyst
6500 at 64 bytes shows both throughputs as % of line rate and per port, in one unit, side by side (heat-shaded,
×N) and in one chart, with the choice kept in the address and no horizontal page scroll; and for many choices
the page prints exactly what the engine (wirespeed/engine/compare.py) makes of the exported data."""

from __future__ import annotations

import json
import re
import tomllib
from datetime import date
from urllib.parse import parse_qs, urlparse

import pytest

from conftest import ROOT
from pipeline import BUILD
from test_site import PUBLIC, Watched, browser, server, site  # noqa: F401 - the site, its server and Chromium
from wirespeed.engine import compare

pytestmark = pytest.mark.browser
NEXUS, CATALYST, ASR = "cisco-nexus-9516-128x100g-2015", "cisco-catalyst-6500-vss-2008", "cisco-asr9006-rsp440-trex-2022"
ROWS_JS = """() => [...document.querySelectorAll('#compare-heat tbody tr')].map(tr =>
  [tr.querySelector('th').getAttribute('data-label'), ...[...tr.querySelectorAll('td')].map(td =>
    [(td.querySelector('.fig') || td).innerText.trim(), (td.querySelector('.ratio') || {innerText: ''}).innerText.trim(), td.className])])"""
OVERFLOW_JS = "document.documentElement.scrollWidth - window.innerWidth"


def table_of(page):
    page.wait_for_selector("#compare-heat tbody tr")
    return {r[0]: r[1:] for r in page.evaluate(ROWS_JS)}


def cell(rows, starts: str):
    (match,) = [v for k, v in rows.items() if k.startswith(starts)]
    return match[0]


@pytest.mark.parametrize("width, scheme", [(390, "light"), (390, "dark"), (1366, "light"), (1366, "dark")])
def test_nexus_and_catalyst_at_64_bytes(site, server, browser, width, scheme):  # noqa: F811
    w = Watched(browser, server, (width, 900), scheme)
    page = w.goto(f"/compare/?sets={NEXUS},{CATALYST}&frames=64")
    assert page.locator("#cmp-kind").input_value() == "ipv4-unicast"  # the test kind both sets have
    assert page.locator("#cmp-norm").input_value() == "line-rate"
    heads = page.locator("#compare-heat thead th").all_inner_texts()
    assert heads[1:] == ["64 bytes (% of line rate)"]  # one column, one unit
    rows = table_of(page)
    assert cell(rows, "Cisco Nexus 9516") == ["99.9990", "×1", "num heat-0 best"]
    assert cell(rows, "Cisco Catalyst 6509-E · virtual switch")[:2] == [">39.8", "<×2.51"]  # short labels: the device, what tells its rows apart
    assert cell(rows, "Cisco Catalyst 6509-E · one chassis")[:2] == ["39.8", "×2.51"]
    assert "heat-3" in cell(rows, "Cisco Catalyst 6509-E · one chassis")[2]
    assert "L1" in page.locator("#compare-statement").inner_text()
    assert page.evaluate(OVERFLOW_JS) <= 1

    page.select_option("#cmp-norm", "per-port")
    assert parse_qs(urlparse(page.url).query)["norm"] == ["per-port"]
    assert page.locator("#compare-heat thead th").all_inner_texts()[1:] == ["64 bytes (Mframes/s per port)"]
    rows = table_of(page)
    assert cell(rows, "Cisco Nexus 9516")[:2] == ["148.808", "×1"]
    assert cell(rows, "Cisco Catalyst 6509-E · virtual switch")[:2] == [">5.92", "<×25.1"]

    page.locator("#compare-chart").scroll_into_view_if_needed()
    page.wait_for_selector("#compare-chart svg .mark-rect path", timeout=20000)  # the chart stack loads only now
    bars = page.locator("#compare-chart svg .mark-rect path").count()
    assert bars == 3, bars  # one bar per device and test, in one chart
    sizes = page.evaluate("() => [...document.querySelectorAll('#compare-chart svg text')].map(t => parseFloat(getComputedStyle(t).fontSize))")
    assert sizes and min(sizes) >= 11, sizes
    alt = page.locator("#compare-chart").get_attribute("data-alt")
    assert "148.808" in alt and ">5.92" in alt
    assert page.evaluate(OVERFLOW_JS) <= 1, f"{width}px: the page scrolls sideways"
    wrap = page.locator("#compare-figures .table-wrap")
    assert wrap.evaluate("e => getComputedStyle(e).overflowX") == "auto"  # a wide table scrolls inside its own box

    shared = page.url  # the address holds the whole choice
    again = w.goto(urlparse(shared).path + "?" + urlparse(shared).query)
    assert again.locator("#cmp-norm").input_value() == "per-port"
    assert cell(table_of(again), "Cisco Nexus 9516")[:2] == ["148.808", "×1"]
    w.close()
    assert not w.problems, w.problems


def test_the_vega_stack_loads_only_for_a_chart(site, server, browser):  # noqa: F811
    w = Watched(browser, server, (1366, 900))
    scripts: list[str] = []
    w.page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    w.goto("/compare/")
    assert not [s for s in scripts if "vega" in s]
    w.close()


STATES = [
    (f"{NEXUS},{CATALYST}", "ipv4-unicast", "throughput", norm, rate, "frame", "")
    for norm in compare.NORMALISATIONS for rate in compare.RATES
] + [
    (f"{CATALYST},{NEXUS}", "ipv4-unicast", "latency_avg", "absolute", "frames", "load", ""),
    (f"{NEXUS},{CATALYST}", "ipv4-unicast", "throughput", "per-100g", "L2", "frame", "64,1518"),
    (f"{NEXUS},{ASR}", "l2-xconnect", "throughput", "line-rate", "frames", "frame", ""),
    (f"{ASR},{NEXUS}", "l2-unicast", "latency_max", "absolute", "frames", "frame", ""),
    ("linux-netns-ipv4-ramp-2026-11,cisco-asr9006-rsp440-trex-2022", "ipv4-routing", "forwarding_rate", "absolute", "frames", "load", ""),  # a ramp
    ("linux-netns-ipv4-ramp-2026-11,cisco-asr9006-rsp440-trex-2022", "ipv4-routing", "loss", "absolute", "frames", "load", "5,50"),
]


def test_the_page_prints_what_the_engine_makes(site, server, browser):  # noqa: F811
    data = json.loads((PUBLIC / "compare" / "data.json").read_text())
    w = Watched(browser, server, (1366, 900))
    for sets, kind, metric, norm, rate, x, frames in STATES:
        q = f"sets={sets}&kind={kind}&metric={metric}&norm={norm}&rate={rate}&x={x}" + (f"&frames={frames}" if frames else "")
        page = w.goto("/compare/?" + q)
        expected = compare.table(compare.select(data["entries"], sets=sets.split(","), kinds=[kind], xs=frames.split(",") if frames else None, x=x),
                                 metric, norm, rate, x)
        if not expected["rows"]:
            assert page.locator("#compare-heat").count() == 0, q
            continue
        got = table_of(page)
        assert list(got) == [r["label"] for r in expected["rows"]], q
        for r in expected["rows"]:
            printed = [[c["text"], c["ratio_text"]] if c else ["—", ""] for c in r["cells"]]
            assert [g[:2] for g in got[r["label"]]] == printed, (q, r["label"])
        heads = page.locator("#compare-heat thead th").all_inner_texts()[1:]
        assert heads == [f"{c['label']} ({expected['unit']})" for c in expected["columns"]], q
        assert page.locator("#compare-statement").inner_text() == expected["statement"], q
    w.close()
    assert not w.problems, w.problems


def test_the_compare_data_holds_only_published_sets_and_stays_small(site):  # noqa: F811
    raw = (PUBLIC / "compare" / "data.json").read_bytes()
    import gzip

    assert len(gzip.compress(raw)) < 60_000
    built = json.loads((BUILD / "hugo-data" / "wirespeed" / "build.json").read_text())["sets"]
    assert {e["set"] for e in json.loads(raw)["entries"]} <= set(built)


# Layout shifts while the page loads (the Layout Instability API; shifts right after a reader's input do not count)
SHIFTS = """window.__shifts = []; new PerformanceObserver(l => { for (const e of l.getEntries()) if (!e.hadRecentInput)
  window.__shifts.push(e.value); }).observe({type: 'layout-shift', buffered: true});"""
FOUR = f"{NEXUS},{CATALYST},{ASR},linux-netns-ipv4-ramp-2026-11"


@pytest.mark.parametrize("width, scheme", [(390, "light"), (1366, "dark")])
def test_the_page_does_not_move_while_it_loads(site, server, browser, width, scheme):  # noqa: F811
    w = Watched(browser, server, (width, 768), scheme)
    w.ctx.add_init_script(SHIFTS)
    for query in (f"sets={NEXUS},{CATALYST}", f"sets={FOUR}&kind=ipv4-routing", ""):
        page = w.goto("/compare/?" + query)
        if query:
            page.wait_for_selector("#compare-out table tbody tr")  # the figures, then the key facts under them
        page.wait_for_timeout(500)
        shift = page.evaluate("window.__shifts.reduce((a, b) => a + b, 0)")
        assert shift < 0.01, f"{query} at {width} px: cumulative layout shift {shift:.3f}"
    w.close()
    assert not w.problems, w.problems


CELLS_JS = """() => [...document.querySelectorAll('#compare-heat tbody tr')].map(tr => ({
  label: tr.querySelector('th').getAttribute('data-label'),
  nameLines: tr.querySelector('th a').getClientRects().length,
  height: tr.querySelector('th').getBoundingClientRect().height,
  line: parseFloat(getComputedStyle(tr.querySelector('th')).lineHeight),
  cells: [...tr.querySelectorAll('td')].map(td => td.querySelector('.fig') ? {text: td.querySelector('.fig').innerText,
    ratio: td.querySelector('.ratio').innerText, bar: td.querySelector('.bar > span').getBoundingClientRect().width,
    track: td.querySelector('.bar').getBoundingClientRect().width} : null)}))"""


def test_rows_are_short_sortable_and_carry_ratio_bars(site, server, browser):  # noqa: F811
    w = Watched(browser, server, (1366, 900))
    page = w.goto(f"/compare/?sets={FOUR}&kind=ipv4-routing&frames=64,1514")
    page.wait_for_selector("#compare-heat tbody tr")
    rows = page.evaluate(CELLS_JS)
    assert len(rows) >= 10
    for r in rows:  # the device's short name on one line, the whole label in at most four lines
        assert r["nameLines"] == 1 and r["height"] <= 4 * r["line"] + 16, r
    heads = page.locator("#compare-heat thead th").all_inner_texts()
    assert heads == ["Device and test", "64 bytes (% of line rate)", "1514 bytes (% of line rate)"]  # one unit, the same for every row
    for r in rows:
        for c in r["cells"]:
            if c is None:
                continue
            assert re.fullmatch(r"[<>≈]?\d[\d,]*(\.\d+)?", c["text"]), c  # a number in the column's unit, no unit of its own
            ratio = float(c["ratio"].lstrip("<>≈×").replace(",", ""))
            assert c["bar"] == pytest.approx(c["track"] / ratio, abs=1.5), (r["label"], c)  # the bar: the share of the best

    # sorting by a column: best first, then the other way; rows without the figure stay last; the order is in the address
    page.locator("#compare-heat thead button.sort", has_text="64 bytes").click()
    assert parse_qs(urlparse(page.url).query)["sort"] == ["64"] and parse_qs(urlparse(page.url).query)["order"] == ["desc"]
    assert page.locator("#compare-heat thead th").nth(1).get_attribute("aria-sort") == "descending"
    values = [float(c[0]["text"].lstrip("<>≈")) if c[0] else None for c in ([r["cells"] for r in page.evaluate(CELLS_JS)])]
    shown = [v for v in values if v is not None]
    assert shown == sorted(shown, reverse=True) and values[: len(shown)] == shown, values
    assert page.evaluate("document.activeElement.matches('button.sort')")  # the keyboard stays on the heading
    page.keyboard.press("Enter")
    assert page.locator("#compare-heat thead th").nth(1).get_attribute("aria-sort") == "ascending"
    values = [float(c[0]["text"].lstrip("<>≈")) if c[0] else None for c in ([r["cells"] for r in page.evaluate(CELLS_JS)])]
    shown = [v for v in values if v is not None]
    assert shown == sorted(shown) and values[: len(shown)] == shown, values
    w.close()
    assert not w.problems, w.problems


def test_key_facts_are_one_row_per_set_with_no_mixed_units(site, server, browser):  # noqa: F811
    w = Watched(browser, server, (1366, 900))
    page = w.goto(f"/compare/?sets={FOUR}")
    page.wait_for_selector("#compare-out table tbody tr")
    facts = page.evaluate("""() => [...document.querySelectorAll('#compare-out tbody tr')].map(tr =>
      [tr.querySelector('th').getAttribute('data-label'), ...[...tr.querySelectorAll('td')].map(td => td.innerText.trim())])""")
    measured = tomllib.loads((ROOT / "data" / "results" / "linux-netns-ipv4-ramp-2026-11" / "result.toml").read_text(encoding="utf-8"))
    kernel, tested = measured["dut"]["software"][0]["version"], date.fromisoformat(measured["campaign"]["end"])  # re-collected runs change both
    tested = f"{tested.day} {tested:%B %Y}"
    assert [f[0] for f in facts] == ["Cisco Nexus 9516", "Cisco Catalyst 6509-E", "Cisco ASR9006", f"Linux kernel {kernel} IPv4 forwarding"]
    assert [f[1] for f in facts] == ["June 2015", "undated", "21 February 2022", tested]  # an undated set says so
    text = page.locator("#compare-out").inner_text()
    assert not re.search(r"frames/s|Mpps|Gbit/s", text)  # no figures in units of their own: the figures table compares them in one
    page.locator("#compare-out thead button.sort", has_text="Tested").click()
    dates = page.evaluate("[...document.querySelectorAll('#compare-out tbody tr')].map(tr => tr.querySelector('td').innerText.trim())")
    assert dates == [tested, "21 February 2022", "June 2015", "undated"], dates  # the newest first, undated last
    w.close()
    assert not w.problems, w.problems
