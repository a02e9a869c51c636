// The compare page's figures: the chosen sets' rows aligned by test kind and frame size (or load), one
// normalisation and one rate, a heat-shaded table with ratios to the best (×N) and an overlaid chart.
// The figures come normalised from compare/data.json (wirespeed/site/compare_data.py, the engine's
// arithmetic); this file only selects, picks one unit by magnitude, prints in the project's number style
// and ranks — the same steps as wirespeed/engine/compare.py `select` and `table`, which the browser test
// holds it to. State lives in the address: ?sets=a,b&kind=…&metric=…&norm=…&rate=…&x=…&frames=64,128
(function () {
  'use strict';
  var root = document.getElementById('compare');
  if (!root) return;
  var host = document.getElementById('compare-figures');
  var controls = document.getElementById('compare-controls');
  var status = document.getElementById('compare-status');
  var data = null;
  var NORM = { 'absolute': 'Absolute', 'line-rate': '% of line rate', 'per-port': 'Per port', 'per-100g': 'Per 100G of port capacity' };
  var RATE = { frames: 'Frames/s', L1: 'L1 bit rate', L2: 'L2 bit rate' };
  var AXIS = { frame: 'Frame size', load: 'Offered load' };
  var QUAL = { exact: '', approx: '≈', above: '>', 'at-least': '≥', below: '<', 'at-most': '≤' };
  var FLIP = { above: 'below', below: 'above', 'at-least': 'at-most', 'at-most': 'at-least' };
  var SUFFIX = { 'absolute': '', 'line-rate': '', 'per-port': ' per port', 'per-100g': ' per 100G' };
  var HIGHER = { throughput: 1, forwarding_rate: 1, rx_rate: 1, goodput: 1 };

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k) && attrs[k] !== null) e.setAttribute(k, attrs[k]);
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }
  function query() { return new URLSearchParams(window.location.search); }
  function list(v) { return (v || '').split(',').map(function (s) { return s.trim(); }).filter(Boolean); }
  function setParam(name, value) {
    var q = query();
    if (value === null || value === '' || value === undefined) q.delete(name); else q.set(name, value);
    var s = q.toString().replace(/%2C/g, ',');
    history.replaceState(null, '', window.location.pathname + (s ? '?' + s : ''));
  }

  // number style: wirespeed/formatting.py and wirespeed/qualified.py
  function group(text) {
    var sign = text.charAt(0) === '-' ? '-' : '';
    var body = text.slice(sign.length), dot = body.indexOf('.');
    var whole = dot < 0 ? body : body.slice(0, dot), frac = dot < 0 ? '' : body.slice(dot);
    if (whole.length < 4 || !/^\d+$/.test(whole)) return text;
    return sign + whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + frac;
  }
  function digitsText(v, digits) {
    if (digits === null || digits === undefined) digits = 4;
    digits = Math.max(1, Math.min(digits, 6));
    var mag = v ? Math.floor(Math.log10(Math.abs(v))) : 0;
    return group(v.toFixed(Math.max(digits - 1 - mag, 0)));
  }
  function figText(f, factor) {
    var v = f[0] / factor;
    if (f[1] === 'range' && f[3]) return digitsText(v, f[2]) + '–' + digitsText(v * f[3], f[2]);
    return (QUAL[f[1]] || '') + digitsText(v, f[2]);
  }
  function combine(qs) {
    var inexact = qs.filter(function (p) { return p[0] !== 'exact'; });
    if (!inexact.length) return 'exact';
    if (inexact.length > 1) {
      var b = {}, n = 0, bounds = true;
      inexact.forEach(function (p) { var q = p[1] > 0 ? p[0] : (FLIP[p[0]] || p[0]); if (!b[q]) { b[q] = 1; n++; } if (!FLIP[q]) bounds = false; });
      return n === 1 && bounds ? Object.keys(b)[0] : 'approx';
    }
    var q = inexact[0][0], d = inexact[0][1];
    if (q === 'approx' || q === 'range') return q;
    return d > 0 ? q : (FLIP[q] || 'approx');
  }
  function ratioOf(f, best, higher) {
    if (f[0] <= 0 || best[0] <= 0) return null;
    if (f === best) return [1, 'exact'];
    var q = function (x) { return x === 'range' ? 'approx' : x; };
    if (higher) return [best[0] / f[0], combine([[q(best[1]), 1], [q(f[1]), -1]])];
    return [f[0] / best[0], combine([[q(f[1]), 1], [q(best[1]), -1]])];
  }
  function ratioText(r, q, digits) {
    if (r === 1 && q === 'exact') return '×1';
    var d = digits ? Math.min(3, digits) : 3;
    return (q in QUAL ? QUAL[q] : '≈') + '×' + digitsText(r, Math.max(d, 2));
  }
  function heat(r) {
    if (r === null || r <= 1) return 0;
    var h = data.heat;
    return Math.max(1, Math.min(h.levels, Math.ceil(Math.log10(r) / Math.log10(h.cap) * h.levels)));
  }
  function dimension(metric, norm, rate) {
    if (metric === 'throughput') return norm === 'line-rate' ? 'percent' : (rate === 'frames' ? 'frame_rate' : 'bit_rate');
    return data.metrics[metric].dimension;
  }
  function unitOf(dim, values, norm) {
    if (dim === 'percent') return [norm === 'line-rate' ? '% of line rate' : '%', 1];
    var ladder = data.units[dim];
    var finite = values.filter(function (v) { return isFinite(v) && v !== 0; }).map(Math.abs);
    var best = ladder[0];
    if (finite.length) {
      var smallest = Math.min.apply(null, finite);
      ladder.forEach(function (u) { if (smallest / u[1] >= 1) best = u; });
    }
    return [best[0] + SUFFIX[norm], best[1]];
  }
  function xOf(e, x) { return x === 'frame' ? e.frame : e.load; }
  function xSort(a, b) {
    var na = typeof a === 'number', nb = typeof b === 'number';
    if (na !== nb) return na ? -1 : 1;
    return na ? a - b : String(a).localeCompare(String(b));
  }
  function xLabel(v, x) { return x === 'frame' ? (typeof v === 'number' ? v + ' bytes' : String(v)) : group(String(v)) + ' % load'; }
  function figureOf(e, metric, norm, rate) { return metric === 'throughput' ? (e.n || {})[norm + '/' + rate] : (e.m || {})[metric]; }
  function other(e, metric, x) { return x === 'load' ? e.frame : (metric !== 'throughput' ? e.load : null); }

  // wirespeed/engine/compare.py: select + table
  function select(sets, kind, xs, x) {
    var order = {}; sets.forEach(function (s, i) { order[s] = i; });
    var wanted = xs.length ? xs.map(String) : null;
    return data.entries.filter(function (e) {
      var v = xOf(e, x);
      return e.set in order && (!kind || e.kind === kind) && v !== null && v !== undefined && (!wanted || wanted.indexOf(String(v)) >= 0);
    }).sort(function (a, b) { return order[a.set] - order[b.set]; });
  }
  // wirespeed/engine/compare.py: test_parts + contender_labels (short row labels: the device's short name, then
  // what tells a set's rows apart)
  function testParts(titles) {
    var uniq = titles.filter(function (t, i) { return titles.indexOf(t) === i; }), out = {};
    if (uniq.length < 2) { uniq.forEach(function (t) { out[t] = t; }); return out; }
    var words = uniq.map(function (t) { return t.split(/\s+/).filter(Boolean); });
    var shortest = Math.min.apply(null, words.map(function (w) { return w.length; })), shared = 0;
    while (shared < shortest && words.every(function (w) { return w[shared] === words[0][shared]; })) shared++;
    uniq.forEach(function (t, i) {
      var rest = words[i].slice(shared).join(' ').replace(/^[\s,;:\u2014\u2013-]+|[\s,;:\u2014\u2013-]+$/g, '');
      out[t] = rest || t;
    });
    return out;
  }
  function labelsOf(entries, metric, x) {
    var testsOf = {}, setsOf = {};
    entries.forEach(function (e) {
      (testsOf[e.set] = testsOf[e.set] || []).push(e.test_title);
      var n = e.short || e.device;
      (setsOf[n] = setsOf[n] || {})[e.set] = 1;
    });
    var parts = {};
    for (var s in testsOf) parts[s] = testParts(testsOf[s]);
    return entries.map(function (e) {
      var n = e.short || e.device, detail = [];
      var distinct = testsOf[e.set].filter(function (t, i, a) { return a.indexOf(t) === i; }).length;
      if (Object.keys(setsOf[n]).length > 1) detail.push(e.test_title);
      else if (distinct > 1) detail.push(parts[e.set][e.test_title]);
      [e.variant, e.direction_label].forEach(function (v) { if (v) detail.push(String(v)); });
      var o = other(e, metric, x);
      if (o !== null && o !== undefined) detail.push(xLabel(o, x === 'frame' ? 'load' : 'frame'));
      return [n, detail.join(' · ')];
    });
  }
  function table(entries, metric, norm, rate, x) {
    if (metric !== 'throughput') { norm = 'absolute'; rate = 'frames'; }
    var higher = !!HIGHER[metric], keys = [], figs = {}, first = {};
    entries.forEach(function (e) {
      var f = figureOf(e, metric, norm, rate);
      if (!f) return;
      var o = other(e, metric, x);
      var key = JSON.stringify([e.set, e.test, e.variant, e.direction, o === undefined ? null : o]);
      if (!figs[key]) { figs[key] = {}; keys.push(key); first[key] = e; }
      var v = String(xOf(e, x));
      if (!(v in figs[key])) figs[key][v] = { f: f, x: xOf(e, x) };
    });
    var colset = {};
    keys.forEach(function (k) { for (var v in figs[k]) colset[v] = figs[k][v].x; });
    var cols = Object.keys(colset).map(function (k) { return colset[k]; }).sort(xSort);
    var all = [];
    keys.forEach(function (k) { for (var v in figs[k]) all.push(figs[k][v].f[0]); });
    var unit = unitOf(dimension(metric, norm, rate), all, norm);
    var best = {};
    cols.forEach(function (c) {
      keys.forEach(function (k) {
        var cell = figs[k][String(c)];
        if (!cell || cell.f[0] <= 0) return;
        var b = best[String(c)];
        if (!b || (higher ? cell.f[0] > b[0] : cell.f[0] < b[0])) best[String(c)] = cell.f;
      });
    });
    var names = labelsOf(keys.map(function (k) { return first[k]; }), metric, x);
    var rows = keys.map(function (k, i) {
      var e = first[k], n = names[i];
      return { set: e.set, url: e.url, label: [n[0], n[1]].filter(Boolean).join(' · '), name: n[0], detail: n[1], cells: cols.map(function (c) {
        var cell = figs[k][String(c)];
        if (!cell) return null;
        var b = best[String(c)], f = cell.f;
        var r = b ? ratioOf(f, b, higher) : null;
        var digits = [f[2], b ? b[2] : null, 3].filter(function (d) { return d !== null && d !== undefined; });
        digits = Math.min.apply(null, digits);
        return { text: figText(f, unit[1]), value: f[0] / unit[1], ratio: r ? r[0] : null, ratio_text: r ? ratioText(r[0], r[1], digits) : '',
                 best: !!r && r[0] === 1 && r[1] === 'exact', heat: heat(r ? r[0] : null) };
      }) };
    });
    return { metric: metric, norm: norm, rate: rate, x: x, unit: unit[0], better: higher ? 'higher' : 'lower',
             statement: data.metrics[metric].statements[norm + '/' + rate], label: data.metrics[metric].label,
             columns: cols.map(function (c) { return { key: String(c), label: xLabel(c, x) }; }), rows: rows };
  }

  // controls
  function choice(name, label, options, value, disabled) {
    var id = 'cmp-' + name;
    var sel = el('select', { id: id, name: name, 'data-param': name }, options.map(function (o) {
      return el('option', { value: o[0], selected: o[0] === value ? 'selected' : null }, [o[1]]);
    }));
    if (disabled) sel.disabled = true;
    return el('div', { 'class': 'field' }, [el('label', { 'for': id }, [label]), sel]);
  }
  function state(sets) {
    var q = query();
    var chosen = data.entries.filter(function (e) { return sets.indexOf(e.set) >= 0; });
    var kinds = {}, korder = [];
    chosen.forEach(function (e) { if (!kinds[e.kind]) { kinds[e.kind] = {}; korder.push(e.kind); } kinds[e.kind][e.set] = 1; });
    var kind = q.get('kind');
    if (!kinds[kind]) {
      kind = korder.slice().sort(function (a, b) { return Object.keys(kinds[b]).length - Object.keys(kinds[a]).length || korder.indexOf(a) - korder.indexOf(b); })[0] || null;
    }
    var ofKind = chosen.filter(function (e) { return e.kind === kind; });
    var metrics = Object.keys(data.metrics).filter(function (m) { return ofKind.some(function (e) { return figureOf(e, m, 'absolute', 'frames') || (m === 'throughput' && e.n && Object.keys(e.n).length); }); });
    var metric = metrics.indexOf(q.get('metric')) >= 0 ? q.get('metric') : (metrics[0] || 'throughput');
    var norm = data.normalisations.indexOf(q.get('norm')) >= 0 ? q.get('norm') : 'line-rate';
    var rate = data.rates.indexOf(q.get('rate')) >= 0 ? q.get('rate') : 'frames';
    var x = q.get('x') === 'load' ? 'load' : 'frame';
    var sizes = {};
    ofKind.forEach(function (e) { var v = xOf(e, x); if (v !== null && v !== undefined && figureOf(e, metric, norm, rate)) sizes[String(v)] = v; });
    var xs = list(q.get('frames')).filter(function (v) { return v in sizes; });
    return { kinds: korder.map(function (k) { return [k, k + ' (' + Object.keys(kinds[k]).length + ' of ' + sets.length + ' sets)']; }), kind: kind,
             metrics: metrics, metric: metric, norm: norm, rate: rate, x: x, xs: xs,
             sizes: Object.keys(sizes).map(function (k) { return sizes[k]; }).sort(xSort) };
  }
  function drawControls(st) {
    controls.textContent = '';
    controls.appendChild(choice('kind', 'Test kind', st.kinds, st.kind));
    controls.appendChild(choice('metric', 'Figure', st.metrics.map(function (m) { return [m, data.metrics[m].label]; }), st.metric));
    controls.appendChild(choice('norm', 'Normalisation', data.normalisations.map(function (n) { return [n, NORM[n]]; }), st.norm, st.metric !== 'throughput'));
    controls.appendChild(choice('rate', 'Counted as', data.rates.map(function (r) { return [r, RATE[r]]; }), st.rate, st.metric !== 'throughput'));
    controls.appendChild(choice('x', 'Columns', [['frame', AXIS.frame], ['load', AXIS.load]], st.x));
    var chips = st.sizes.map(function (v) {
      return el('label', null, [el('input', { type: 'checkbox', 'data-x': String(v), checked: st.xs.indexOf(String(v)) >= 0 ? 'checked' : null }), ' ' + xLabel(v, st.x)]);
    });
    controls.appendChild(el('fieldset', { 'class': 'field field-wide' }, [el('legend', null, [(st.x === 'frame' ? 'Frame sizes' : 'Loads') + ' (none ticked: all)']),
      el('div', { 'class': 'chips' }, chips)]));
    controls.hidden = false;
  }
  controls.addEventListener('change', function (ev) {
    var t = ev.target;
    ev.stopPropagation();
    if (t.getAttribute('data-param')) {
      setParam(t.getAttribute('data-param'), t.value);
      if (t.name === 'kind' || t.name === 'x') { setParam('frames', null); setParam('sort', null); setParam('order', null); }
    } else if (t.hasAttribute('data-x')) {
      var ticked = [].map.call(controls.querySelectorAll('input[data-x]:checked'), function (i) { return i.getAttribute('data-x'); });
      setParam('frames', ticked.join(','));
    }
    render();
  });

  // sorting (?sort=<column key>|label&order=asc|desc): a column sorts best first on the first click, the other way on
  // the second; rows without the figure stay last; ties keep the order the sets were picked in
  function sorted(t) {
    var q = query(), key = q.get('sort'), asc = q.get('order') === 'asc', i = -1;
    t.columns.forEach(function (c, j) { if (c.key === key) i = j; });
    if (key !== 'label' && i < 0) return { rows: t.rows, key: null, asc: asc };
    var rows = t.rows.slice().sort(function (a, b) {
      if (key === 'label') return (asc ? 1 : -1) * a.label.localeCompare(b.label);
      var x = a.cells[i], y = b.cells[i];
      if (!x || !y) return (x ? 0 : 1) - (y ? 0 : 1);
      return (asc ? 1 : -1) * (x.value - y.value);
    });
    return { rows: rows, key: key, asc: asc };
  }
  function sortButton(key, label, unit, state, better) {
    var on = state.key === key;
    var next = on ? (state.asc ? 'desc' : 'asc') : (key === 'label' || better === 'lower' ? 'asc' : 'desc');
    var b = el('button', { type: 'button', 'class': 'sort', 'data-sort': key, 'data-order': next }, [label]);
    if (unit) { b.appendChild(document.createTextNode(' ')); b.appendChild(el('span', { 'class': 'unit' }, ['(' + unit + ')'])); }
    return el('th', { scope: 'col', 'class': key === 'label' ? 'label' : 'num', 'aria-sort': on ? (state.asc ? 'ascending' : 'descending') : 'none' }, [b]);
  }
  function drawTable(t) {
    var st = sorted(t);
    var head = el('tr', null, [sortButton('label', 'Device and test', '', st, t.better)].concat(t.columns.map(function (c) {
      return sortButton(c.key, c.label, t.unit, st, t.better);
    })));
    var base = root.getAttribute('data-root').replace(/\/?$/, '/');
    var body = st.rows.map(function (r) {
      var name = r.url ? el('a', { href: base + r.url }, [r.name]) : el('span', null, [r.name]);
      var label = el('th', { scope: 'row', 'data-label': r.label }, [name].concat(r.detail ? [el('span', { 'class': 'row-detail' }, [r.detail])] : []));
      return el('tr', { 'data-set': r.set }, [label].concat(r.cells.map(function (c) {
        if (!c) return el('td', { 'class': 'num none' }, [el('span', { 'class': 'muted', title: 'no figure' }, ['—'])]);
        var bar = el('span', { 'class': 'bar', 'aria-hidden': 'true' }, [el('span')]);
        if (c.ratio) bar.firstChild.style.width = (100 / c.ratio).toFixed(1) + '%';  // the best fills the cell; ×2 half of it
        return el('td', { 'class': 'num heat-' + c.heat + (c.best ? ' best' : '') }, [el('span', { 'class': 'fig' }, [c.text]), ' ', el('span', { 'class': 'ratio' }, [c.ratio_text]), bar]);
      })));
    });
    var caption = el('caption', null, [el('span', null, [t.label + ' (' + t.unit + ')'])]);
    var tbl = el('table', { 'class': 'compare-heat', id: 'compare-heat' }, [caption, el('thead', null, [head]), el('tbody', null, body)]);
    tbl.addEventListener('click', function (ev) {
      var btn = ev.target.closest ? ev.target.closest('button.sort') : null;
      if (!btn) return;
      setParam('sort', btn.getAttribute('data-sort'));
      setParam('order', btn.getAttribute('data-order'));
      var fresh = drawTable(t);
      var old = document.getElementById('compare-heat').closest('figure');
      old.parentNode.replaceChild(fresh, old);
      var again = fresh.querySelector('button.sort[data-sort="' + btn.getAttribute('data-sort') + '"]');
      if (again) again.focus();
    });
    return el('figure', { 'class': 'result-table compare-result' }, [
      el('div', { 'class': 'table-wrap', role: 'region', 'aria-label': 'Comparison table', tabindex: '0' }, [tbl]),
      el('figcaption', null, [el('span', { 'class': 'caption-text' }, [t.statement + ' ×N: how many times the ' + (t.better === 'higher' ? 'highest' : 'lowest') +
        ' figure of the column is better (×1 is the best); the bar is the figure\u2019s share of the best. Sort by a column with its heading.'])])]);
  }

  var chartHost = document.getElementById('compare-chart-host') || host;
  var failed = false;
  function draw() {
    host.textContent = '';
    if (chartHost !== host) chartHost.textContent = '';
    var sets = [];
    query().getAll('sets').forEach(function (v) { list(v).forEach(function (s) { if (sets.indexOf(s) < 0 && data.entries.some(function (e) { return e.set === s; })) sets.push(s); }); });
    if (sets.length < 2) { controls.hidden = true; return; }
    var st = state(sets);
    drawControls(st);
    if (!st.kind) return;
    var t = table(select(sets, st.kind, st.xs, st.x), st.metric, st.norm, st.rate, st.x);
    host.appendChild(el('p', { 'class': 'compare-statement', id: 'compare-statement' }, [t.statement]));
    if (!t.rows.length) { host.appendChild(el('p', { 'class': 'empty' }, ['None of these sets has this figure for this test kind.'])); return; }
    host.appendChild(drawTable(t));
    // the chart comes after the key facts (js/compare.js), last on the page: drawn late, it moves nothing a reader sees
    if (window.wirespeedCompareChart) window.wirespeedCompareChart(chartHost, t, root.getAttribute('data-chart-scripts'));
  }
  function render() {
    if (data) draw();
    // the key facts (js/compare.js) are drawn under the figures once these are in place, so nothing above them moves
    if (data || failed) { root.setAttribute('data-figures-state', 'drawn'); document.dispatchEvent(new CustomEvent('wirespeed:compare-figures-drawn')); }
  }

  document.addEventListener('wirespeed:compare-sets', render);
  window.addEventListener('popstate', render);
  fetch(root.getAttribute('data-figures'), { credentials: 'same-origin' })
    .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
    .then(function (d) { data = d; render(); })
    .catch(function (err) { failed = true; status.textContent = 'The figures to compare could not be loaded (' + err.message + ').'; render(); });
})();
