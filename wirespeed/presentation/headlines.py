"""Headline figures of a result set: a few cards, chosen per test kind, in human units.

Throughput tests give the row wirespeed.catalog.headline_choice chooses (the one choice every headline shows:
repeats collapsed into their summary, the smallest frame size) with its bit rate, its share of line rate,
its loss and its caveats (the statistic of repeats and its spread, a lower bound and why); a test that searched for no
throughput its forwarding rate at its load (CSIT's MRR, with its trials' spread), or a layer-4 tool's goodput or
transaction rate (iperf, netperf); latency tests the latency at the throughput rate; failover tests the outage; ramps their
declared limit (wirespeed.engine.ramp.LIMIT_DEFINITION) with the other readings explained beside it; loss
tests (captures) the frames lost of those sent. Every derived figure is read from the catalog's
columns (line rate, % of line rate), printed with the qualifier and digits wirespeed.engine.qualified gives
it and marked derived; published figures keep their qualifier. Cards that print the same figures are
merged into one that names every test. One export (site data) feeds the web page and the PDF.
"""

from __future__ import annotations

from typing import Any

from wirespeed.catalog.headline_choice import Headline, caveats, repeats_of, spread, spread_texts, statistic, throughput_headline, trial_caveat
from wirespeed.engine import number_style
from wirespeed.engine import qualified
from wirespeed.engine import ramp
from wirespeed.presentation.tables.results import REPEATED, frame_label, is_sonet, machine_unit
from wirespeed.engine.columns import METRICS
from wirespeed.engine.units import UNITS
from wirespeed.resultset.methodology import merged as merged_methodology

MOST = 7  # cards per set
PER_KIND = {"throughput": 3, "forwarding": 3, "goodput": 3, "transactions": 3, "ramp": 3, "latency": 1, "failover": 3, "loss": 1}  # cards of one kind at most
DIGITS = 4  # a headline shows at most four significant digits
KIND_ORDER = ("throughput", "forwarding", "goodput", "transactions", "ramp", "latency", "failover", "loss")
# A test that measures no throughput (no search for the highest rate without loss) states its result in another rate
# (tables.results.REPEATED, which its trials repeat): the rate a device forwarded at a fixed offered load (CSIT's MRR: its
# trials and their summary), a layer-4 tool's goodput (iperf, k8s-netperf, netperf streams) or its rate of
# request/response transactions (netperf RR). Metric → the card's kind; the card is titled, and its figure labelled, by
# the metric's own label.
RATE_KINDS = {"forwarding_rate": "forwarding", "goodput": "goodput", "transaction_rate": "transactions"}
TITLES = {"throughput": "Throughput", **{RATE_KINDS[m]: METRICS[m].label for m in REPEATED}, "ramp": "Ramp limit", "latency": "Latency",
          "failover": "Failover time", "loss": "Frame loss"}
ZERO_LOSS_RFCS = {"2544", "2889", "5180", "3918"}  # throughput there is by definition the highest rate without loss


def _q(q: qualified.Qualified) -> qualified.Qualified:
    digits = DIGITS if q.digits is None else min(q.digits, DIGITS)
    return qualified.Qualified(q.qualifier, digits, q.high_factor)


def _published_q(cell: dict[str, Any]) -> qualified.Qualified:
    q = qualified.Qualified(cell.get("qualifier") or "exact", qualified.significant_digits(cell["text"]))
    if q.qualifier == "range":
        lo, _, hi = cell["text"].partition("..")
        q = qualified.Qualified("range", q.digits, float(hi) / float(lo) if float(lo) else None)
    return _q(q)


def _human(value: float, dimension: str, q: qualified.Qualified) -> tuple[str, str]:
    """A canonical value in the unit that suits its size (frames/s family for rates), with `q`'s digits."""
    unit = UNITS[number_style.pick_unit(dimension, [value])]
    return qualified.text(value / float(unit.factor), q), unit.symbol


def _unit_name(symbol: str, dimension: str = "time") -> str:
    """The unit a figure was printed in, from its symbol (µs, kframes/s)."""
    return next(u.name for u in UNITS.values() if u.symbol == symbol and u.dimension == dimension)


def _figure(text: str, unit: str, derived: bool, label: str, source: tuple[int, str] | None = None) -> dict[str, Any]:
    """A card's figure; `source` is the catalog figure it prints, (row_id, metric), which the site names by figure id."""
    return {"text": text, "unit": unit, "derived": derived, "label": label, "source": source}


def _metric(row: dict[str, Any], metric: str, dimension: str, label: str) -> dict[str, Any] | None:
    """A published cell of the row in human units (its qualifier kept)."""
    cell = row["cells"].get(metric)
    if cell is None or cell.get("value") is None:
        return None
    text, unit = _human(cell["value"], dimension, _published_q(cell))
    return _figure(text, unit, False, label, (row["row_id"], metric))


def _where(row: dict[str, Any], test: dict[str, Any]) -> str:
    fs = frame_label(row)
    parts = [f"{fs}-byte frames" if row.get("frame_size") else (f"{fs} mix" if fs else ""), row.get("variant") or "", row.get("direction") or ""]
    if row.get("load_pct") is not None:
        parts.append(f"{number_style.plain(row['load_pct'])} % load")
    return ", ".join(p for p in parts if p)


def _throughput(row: dict[str, Any], test: dict[str, Any], method: dict[str, Any]) -> list[dict[str, Any]]:
    cells = row["cells"]
    figs = []
    if "throughput" in cells:
        figs.append(_metric(row, "throughput", "frame_rate", "frame rate"))
    else:
        q = _q(qualified.of_derived(row, "throughput"))
        figs.append(_figure(*_human(row["throughput_fps"], "frame_rate", q), True, "frame rate", (row["row_id"], "throughput")))
    l1 = "SONET payload" if is_sonet(test) else "L1"  # on POS the "L1" rate is the SONET payload (tables.results.media_label)
    for metric, layer in (("throughput_l1", l1), ("throughput_l2", "L2")):
        if metric in cells:
            f = _metric(row, metric, "bit_rate", f"{layer} bit rate")
            figs.append({**f, "unit": f"{f['unit']} {layer}"})
            break
    else:
        if row.get("throughput_l1_bps") is not None:
            text, unit = _human(row["throughput_l1_bps"], "bit_rate", _q(qualified.of_derived(row, "throughput_l1")))
            figs.append(_figure(text, f"{unit} {l1}", True, "L1 bit rate", (row["row_id"], "throughput_l1")))
    if "throughput_line_rate" in cells:
        figs.append(_figure(number_style.published(cells["throughput_line_rate"]["text"], cells["throughput_line_rate"]["qualifier"]), "% of line rate", False, "share of line rate",
                            (row["row_id"], "throughput_line_rate")))
    elif row.get("throughput_pct_line_rate") is not None:
        q = _q(qualified.of_derived(row, "throughput_line_rate"))
        figs.append(_figure(qualified.text(row["throughput_pct_line_rate"], q), "% of line rate", True, "share of line rate", (row["row_id"], "throughput_line_rate")))
    if "throughput_max_theoretical" in cells:
        c = cells["throughput_max_theoretical"]
        figs.append(_figure(number_style.published(c["text"], c["qualifier"]), "% of maximum theoretical", False, "share of the maximum theoretical rate",
                            (row["row_id"], "throughput_max_theoretical")))
    lost = cells.get("lost") or cells.get("loss")
    if lost is not None and lost.get("value") == 0:
        figs.append(_figure("no loss", "", False, "loss"))
    elif lost is None and set(test.get("rfc") or []) & ZERO_LOSS_RFCS and method.get("loss_tolerance_pct") == 0:
        figs.append(_figure("no loss", "", False, "loss (the method declares zero loss tolerance)"))
    return [f for f in figs if f]


LATENCY_METRICS = (("latency_avg", "average"), ("latency_p50", "median"), ("latency_p99", "99th percentile"), ("latency_max", "maximum"))


def _latency(row: dict[str, Any]) -> list[dict[str, Any]]:
    figs = []
    for metric, label in LATENCY_METRICS:
        f = _metric(row, metric, "time", label)
        if f:
            figs.append({**f, "unit": f"{f['unit']} {label}"})
    return figs[:3]


def _sizes(row: dict[str, Any]) -> tuple:
    fs = row.get("frame_size")
    return (fs is None, fs or 0)


def _cards_of_test(test: dict[str, Any], method: dict[str, Any], rows: list[dict[str, Any]], samples: list[dict[str, Any]], headline: Headline | None) -> list[dict[str, Any]]:
    cards = []
    title = test["title"]
    ramp_test = "loadtest-ramp" in (test.get("rfc") or [])
    series = [s for s in samples if ramp_test and s["test_id"] == test["test_id"] and s.get("tx_rate_fps") is not None and s.get("rx_rate_fps") is not None]
    if series:
        cards += ramp_cards(test, series, rows)
    if headline is not None and not series:  # the catalog's one choice (wirespeed.catalog.headline_choice), its caveats beside it
        best = headline.row
        figs = _throughput(best, test, method)
        unit = UNITS[_unit_name(figs[0]["unit"], "frame_rate")]
        figs += [_figure(c, "", False, "caveat") for c in caveats(headline, unit.symbol, float(unit.factor))]  # the spread in the figure's unit
        cards.append({"kind": "throughput", "context": f"{title}, {_where(best, test)}", "figures": figs, "value": best["throughput_fps"]})
    if headline is None and not series:
        for metric in REPEATED:
            kind, dimension, label = RATE_KINDS[metric], METRICS[metric].dimension, METRICS[metric].label.lower()
            for row in _result_rows(rows, metric, PER_KIND[kind]):
                if (f := _metric(row, metric, dimension, label)) is not None:
                    figs = [f]
                    if over := _over_trials(row, rows, metric, f["unit"], dimension):
                        figs.append(_figure(over, "", False, "caveat"))
                    cards.append({"kind": kind, "context": ", ".join(x for x in (title, _where(row, test)) if x), "figures": figs,
                                  "value": row["cells"][metric]["value"]})
    lat = [r for r in rows if any(m in r["cells"] for m, _ in LATENCY_METRICS)]
    if lat:
        at_rate = [r for r in lat if any(m in r["cells"] for m in qualified.THROUGHPUT_FAMILY) or (r.get("load_pct") is not None and r.get("load_pct") == method.get("throughput_load_pct"))]
        pick = at_rate or sorted(lat, key=lambda r: -(r.get("load_pct") or 0))
        smallest = min(_sizes(r) for r in pick)
        row = next(r for r in pick if _sizes(r) == smallest)
        where = _where(row, test)
        note = "at the throughput rate" if at_rate else ""
        figs = _latency(row)
        first = next((m for m, _ in LATENCY_METRICS if m in row["cells"]), None)
        unit = figs[0]["unit"].split(" ")[0] if figs else ""
        if first and (c := trial_caveat(row, rows, first, dict(LATENCY_METRICS)[first] + " latency", unit, float(UNITS[_unit_name(unit)].factor))):
            figs.append(_figure(c, "", False, "caveat"))
        cards.append({"kind": "latency", "context": ", ".join(x for x in (title, where, note) if x), "figures": figs, "value": None})
    fo = [r for r in rows if "failover_time" in r["cells"]]
    for r in fo[:1]:
        f = _metric(r, "failover_time", "time", "outage")
        cards.append({"kind": "failover", "context": f"{title}" + (f", {_where(r, test)}" if _where(r, test) else ""), "figures": [f], "value": r["cells"]["failover_time"]["value"]})
    lossy = [r for r in rows if ("lost" in r["cells"] or "loss" in r["cells"]) and not any(m in r["cells"] for m in qualified.THROUGHPUT_FAMILY)]
    if lossy and not series and all("tx" in r["cells"] and "lost" in r["cells"] for r in lossy):
        sent = sum(r["cells"]["tx"]["value"] for r in lossy)
        lost = sum(r["cells"]["lost"]["value"] for r in lossy)
        figs = [_figure("no loss" if lost == 0 else number_style.derived(lost, 0), "" if lost == 0 else "frames lost", lost != 0, "frames lost"),
                _figure(number_style.derived(sent, 0), "frames sent", True, "frames sent")]
        if all("reordered" in r["cells"] for r in lossy):
            figs.append(_figure(number_style.derived(sum(r["cells"]["reordered"]["value"] for r in lossy), 0), "reordered", True, "frames reordered"))
        cards.append({"kind": "loss", "context": f"{title}, all {len(lossy)} frame sizes" if len(lossy) > 1 else title, "figures": figs, "value": lost})
    return cards


def _result_rows(rows: list[dict[str, Any]], metric: str, most: int) -> list[dict[str, Any]]:
    """The rows of a test that state its result in `metric`: the whole run's (not a port's, a stream's or a component's;
    a test of one port's rows only, that port's), the summary of its trials where it has one, the smallest frame size; one for each direction and variant (k8s-netperf's
    pod placements), at most `most`, else none: a table of more (flows, loads) than a few cards could stand for."""
    rows = [r for r in rows if metric in r["cells"] and r.get("component") is None]
    whole = [r for r in rows if r.get("port") is None]
    if not whole and len({r.get("port") for r in rows}) > 1:
        return []  # only each port's or flow's own (flent's flows): no card names a port
    rows = whole or rows
    if any(r.get("trial") is None for r in rows) and any(r.get("trial") is not None for r in rows):
        rows = [r for r in rows if r.get("trial") is None]
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r.get("direction"), r.get("variant"), r.get("trial"), r.get("load_pct")), []).append(r)
    if len({(trial, load) for _, _, trial, load in groups}) > 1 or len(groups) > most:
        return []
    return [min(g, key=_sizes) for g in groups.values()]  # the smallest frame size, as the throughput headline takes


def _over_trials(row: dict[str, Any], rows: list[dict[str, Any]], metric: str, unit: str, dimension: str) -> str | None:
    """Beside the summary of repeated trials (CSIT's MRR: ten trials and the figure it reports for them): the range and
    median of the trials, in the card's unit, with no more than four digits in the highest."""
    values = sorted(r["cells"][metric]["value"] for r in repeats_of(row, rows) if metric in r["cells"])
    if row.get("trial") is not None or len(values) < 2:
        return None
    low, med, high = spread_texts(spread(values), float(UNITS[_unit_name(unit, dimension)].factor))
    name = statistic(row["cells"][metric]["value"], values)  # as the throughput's caveat names it: mean, median or summary
    return f"{name} of {len(values)} trials: {low} to {high} {unit}" + (f", median {med}" if len(values) > 2 else "")


def ramp_cards(test: dict[str, Any], series: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One card per ramp (frame size, direction, variant) of a test: the declared limit and the other readings."""
    cards = []
    for key, pts in group_ramps(series).items():
        pts.sort(key=lambda s: s["t_s"])
        rs = ramp.summarise([(p["t_s"], p["tx_rate_fps"], p["rx_rate_fps"], p.get("loss_pct")) for p in pts])
        line = ramp_line_rate(rows, pts[0])
        readings = []
        for rd in ramp.readings(rs):
            text, unit = _human(rd.fps, "frame_rate", qualified.Qualified(digits=DIGITS)) if rd.fps is not None else ("none", "")
            pct = f"{qualified.text(rd.fps / line * 100, qualified.Qualified(digits=3))} % of line rate" if line and rd.fps is not None else ""
            at = f"at {number_style.derived(rd.t_s, 0)} s" if rd.t_s is not None else ""
            readings.append({"key": rd.key, "label": rd.label, "text": text, "unit": unit, "of_line_rate": pct, "at": at,
                             "explanation": rd.explanation, "declared": rd.declared})
        limit = readings[0]
        figs = [_figure(limit["text"], limit["unit"], True, "highest rate without loss")]
        if limit["of_line_rate"]:
            figs.append(_figure(limit["of_line_rate"].split(" ")[0], "% of line rate", True, "share of line rate"))
        onset = readings[1]
        figs.append(_figure(f"loss from {onset['at'].removeprefix('at ')}" if onset["at"] else "no loss onset", "", True, "loss onset"))
        frames = f"{key[0]}-byte frames" if key[0].isdigit() else key[0]
        where = ", ".join(x for x in (frames if f"{key[0]}-byte" not in test["title"] else "", key[1], key[2]) if x)
        cards.append({"kind": "ramp", "context": ", ".join(x for x in (test["title"], where) if x), "figures": figs, "value": rs.max_lossless_rx_fps,
                      "definition": ramp.LIMIT_DEFINITION, "readings": readings})
    return cards


def group_ramps(series: list[dict[str, Any]]) -> dict[tuple[str, str, str, str], list[dict[str, Any]]]:
    """Samples of one test by ramp: (frame, direction, variant, port)."""
    out: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    for s in series:
        out.setdefault((frame_label(s), s.get("direction") or "", s.get("variant") or "", s.get("port") or ""), []).append(s)
    return out


def ramp_line_rate(rows: list[dict[str, Any]], sample: dict[str, Any]) -> float | None:
    """The catalog's line rate for a ramp: that of a measurement row of the same test and frame size."""
    for r in rows:
        if r["test_id"] == sample["test_id"] and frame_label(r) == frame_label(sample) and r.get("line_rate_fps"):
            if (r.get("direction") or None) in (None, sample.get("direction")) and (r.get("variant") or None) in (None, sample.get("variant")):
                return r["line_rate_fps"]
    return None


def _as_tables_print(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary with a machine's cells (an imported tool's or a collector's: tables.results.machine_unit) as the
    tables print them (the number rule: CSIT's "23.0" µs is 23 µs), so that a card states a figure digit for digit as
    its row does; a lab's transcribed figures keep their digits."""
    rows = []
    for r in summary["rows"]:
        cells = {}
        for metric, cell in r["cells"].items():
            unit = machine_unit(summary, cell)
            if unit is None or cell.get("qualifier") == "range" or not cell.get("text"):
                cells[metric] = cell
                continue
            bare = cell["text"].lstrip("~<>=")
            cells[metric] = {**cell, "text": cell["text"][: len(cell["text"]) - len(bare)] + number_style.machine(bare, unit).replace(",", "")}
        rows.append({**r, "cells": cells})
    return {**summary, "rows": rows}


def headlines(summary: dict[str, Any], samples: list[dict[str, Any]], most: int = MOST) -> list[dict[str, Any]]:
    """The headline cards of a result set, in kind order, identical cards merged, at most `most`."""
    summary = _as_tables_print(summary)
    meta = summary["meta"]
    tests = {t["id"]: t for t in meta["tests"]}
    cards: list[dict[str, Any]] = []
    for t in summary["tests"]:
        method = merged_methodology(meta.get("methodology"), tests[t["test_id"]].get("methodology"))
        rows = [r for r in summary["rows"] if r["test_id"] == t["test_id"]]
        for c in _cards_of_test(t, method, rows, samples, throughput_headline(summary, t["test_id"])):
            c["tests"] = [t["test_id"]]
            c["test_title"] = t["title"]
            if c["figures"]:
                cards.append(c)
    if any(c["kind"] == "throughput" for c in cards):  # a rate at a fixed load is the result only of a set that searched for none
        cards = [c for c in cards if c["kind"] != "forwarding"]
    merged: list[dict[str, Any]] = []
    for c in cards:
        # one card for tests that print the same figures: all of them (a card that shows one more figure, say a published
        # share of the maximum theoretical rate, would claim it for a test whose table prints another)
        same = next((m for m in merged if m["kind"] == c["kind"] and _shown(m) == _shown(c)), None)
        if same:
            same["tests"].append(c["tests"][0])
            same["also"].append(c["test_title"])
        else:
            merged.append({**c, "also": []})
    chosen: list[dict[str, Any]] = []
    for kind in KIND_ORDER:  # the first card of every kind, then the others in order
        chosen += [c for c in merged if c["kind"] == kind][:1]
    for c in merged:
        if len(chosen) >= most:
            break
        if c not in chosen and sum(1 for x in chosen if x["kind"] == c["kind"]) < PER_KIND[c["kind"]]:
            chosen.append(c)
    chosen = chosen[:most]
    chosen.sort(key=lambda c: (KIND_ORDER.index(c["kind"]), merged.index(c)))
    for c in chosen:
        c["title"] = TITLES[c["kind"]]
        c["text"] = " · ".join(f"{f['text']}" + (f"\u00a0{f['unit']}" if f["unit"] else "") + ("\u00a0†" if f["derived"] else "") for f in c["figures"])
    return chosen


def _shown(card: dict[str, Any]) -> tuple:
    return tuple((f["text"], f["unit"]) for f in card["figures"])
