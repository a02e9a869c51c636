"""Issue 23, the front door and search in Chromium: the home page leads with the reviews of the largest devices
(ranked by the highest rate their sets forwarded) and lists every set by that rate and every review by its
test's date, the undated ones last and said to be undated; the reviews and results lists keep the same date
order; search answers as the reader types, ranks the pages named after what was asked (and about that device)
first, and its excerpts keep fields apart. Nothing on these pages moves while they load."""

from __future__ import annotations

import re

import pytest

from test_site import Watched, browser, server, sets, site, wait_for  # noqa: F401  (the same built site, server and Chromium)

pytestmark = pytest.mark.browser
SHIFTS = """window.__shifts = []; new PerformanceObserver(l => { for (const e of l.getEntries()) if (!e.hadRecentInput)
  window.__shifts.push(e.value); }).observe({type: 'layout-shift', buffered: true});"""


def review_dates(site) -> dict[str, str]:  # noqa: F811
    """Review path → the test's date the lists order by: the article's source_date, else its set's date."""
    from wirespeed.site import articles

    out = {}
    data = sets(site)
    for p in (site / "reviews").glob("*/index.html"):
        slug = p.parent.name
        art = articles.for_report(slug)
        front = art.front if art else {}
        out[f"/reviews/{slug}/"] = str(front.get("source_date") or data.get(slug, {}).get("date") or "")
    return out


def in_date_order(dates: list[str]) -> bool:
    dated = [d for d in dates if d]
    return dated == sorted(dated, reverse=True) and dates[: len(dated)] == dated  # newest first, undated last


LIST = """sel => [...document.querySelectorAll(sel)].map(li => ({href: new URL(li.querySelector('a').href).pathname,
  text: li.innerText}))"""


def test_the_home_page_leads_with_the_largest_devices_and_lists_by_date(site, server, browser):  # noqa: F811
    data = sets(site)
    peak = {slug: (d.get("peak") or {}).get("bps", 0) for slug, d in data.items() if d["status"] == "published"}
    w = Watched(browser, server, (1366, 900))
    page = w.goto("/")
    featured = page.evaluate("[...document.querySelectorAll('.cards-featured .review-card h3 a')].map(a => new URL(a.href).pathname)")
    largest = sorted((p for p in peak if (site / "reviews" / p / "index.html").is_file()), key=lambda s: -peak[s])[:3]
    assert sorted(featured) == sorted(f"/reviews/{s}/" for s in largest), featured  # the reviews of the largest devices lead
    assert not any("linux-netns" in f for f in featured)
    first = page.evaluate("new URL(document.querySelector('main section:not(.hero) a').href).pathname")
    assert first == featured[0]
    dates = review_dates(site)
    assert in_date_order([dates[f] for f in featured])
    ranked = page.evaluate(LIST, ".rank-list li")
    slugs = [r["href"].strip("/").split("/")[-1] for r in ranked]
    assert [peak[s] for s in slugs] == sorted((peak[s] for s in slugs), reverse=True) and slugs[0] == max(peak, key=peak.get)
    for r in ranked:  # every figure printed as the site data has it
        d = data[r["href"].strip("/").split("/")[-1]]
        assert (d["peak"]["text"] if d.get("peak") else "no L1 throughput figure") in r["text"], r
    reviews = page.evaluate(LIST, "#reviews-h ~ .review-list li")
    assert len(reviews) == len(dates) and in_date_order([dates[r["href"]] for r in reviews])
    for r in reviews:
        assert ("undated" in r["text"]) == (not dates[r["href"]]), r  # an undated review says so
    w.close()
    assert not w.problems, w.problems


def test_the_lists_are_in_test_date_order(site, server, browser):  # noqa: F811
    data = sets(site)
    w = Watched(browser, server, (390, 844))
    reviews = w.goto("/reviews/").evaluate(LIST, ".review-list li")
    dates = review_dates(site)
    assert [r["href"] for r in reviews] and in_date_order([dates[r["href"]] for r in reviews])
    assert all(("undated" in r["text"]) == (not dates[r["href"]]) for r in reviews)
    cards = w.goto("/results/").evaluate("""[...document.querySelectorAll('#result-list .card')].map(c => ({
      href: new URL(c.querySelector('a').href).pathname, meta: c.querySelector('.card-meta').innerText}))""")
    card_dates = [data[c["href"].strip("/").split("/")[-1]]["date"] for c in cards]
    assert in_date_order(card_dates)
    assert all(c["meta"].startswith("undated") == (not d) for c, d in zip(cards, card_dates))
    w.close()
    assert not w.problems, w.problems


RESULTS = """() => [...document.querySelectorAll('#search-results li')].map(li => ({href: new URL(li.querySelector('a').href).pathname,
  title: li.querySelector('a').innerText, kind: li.querySelector('.search-kind').innerText, excerpt: li.querySelector('.search-excerpt').innerText}))"""


@pytest.mark.parametrize("width, scheme", [(390, "dark"), (1366, "light")])
def test_search_answers_as_you_type_with_clean_excerpts_and_the_device_first(site, server, browser, width, scheme):  # noqa: F811
    w = Watched(browser, server, (width, 844), scheme)
    page = w.goto("/search/")
    page.locator("#search-q").click()
    page.keyboard.type("nexus", delay=60)  # no Enter
    wait_for(page, "document.querySelectorAll('#search-results li').length > 0", 60)
    assert "q=nexus" in page.url  # the address keeps the query
    found = page.evaluate(RESULTS)
    assert found[0]["href"] == "/results/cisco-nexus-9516-128x100g-2015/" and found[1]["href"] == "/reviews/cisco-nexus-9516-128x100g-2015/", found[:3]
    assert [f["kind"].lower() for f in found[:2]] == ["result set", "review"]
    for f in found:
        assert "nexus" in (f["title"] + f["excerpt"]).lower()
        assert not re.search(r"Device under test[A-Z0-9]|Chassis[A-Z]|[a-z]\)[A-Z]|PDF, \d[^)]*\)[A-Z]", f["excerpt"]), f["excerpt"]  # fields kept apart
    page.locator("#search-q").fill("")
    page.keyboard.type("catalyst", delay=60)
    wait_for(page, "[...document.querySelectorAll('#search-results li a')].some(a => /catalyst/i.test(a.innerText))", 60)
    wait_for(page, "document.getElementById('search-status').innerText.includes('catalyst')", 30)
    assert page.evaluate(RESULTS)[0]["href"] == "/results/cisco-catalyst-6500-vss-2008/"
    w.close()
    assert not w.problems, w.problems


@pytest.mark.parametrize("width", [390, 1366])
def test_the_front_pages_do_not_move_while_they_load(site, server, browser, width):  # noqa: F811
    w = Watched(browser, server, (width, 800))
    w.ctx.add_init_script(SHIFTS)
    for path in ("/", "/results/", "/results/?vendor=Cisco", "/reviews/", "/search/?q=nexus", "/reviews/cisco-nexus-9516-128x100g-2015/",
                 "/results/cisco-asr9006-rsp440-trex-2022/"):
        page = w.goto(path)
        page.wait_for_timeout(800)
        shift = page.evaluate("window.__shifts.reduce((a, b) => a + b, 0)")
        assert shift < 0.01, f"{path} at {width} px: cumulative layout shift {shift:.3f}"
    w.close()
    assert not w.problems, w.problems
