// Upgrade each static chart (<figure class="result-chart" data-vega>) to a live Vega view when it
// scrolls into view. The Vega specs were compiled from Vega-Lite at build time, so the page loads
// only a Vega runtime (js/vega-runtime.js, with Vega's expression interpreter: no eval), once a chart is near.
// Colours are tokens swapped for the page's CSS variables, so charts follow the light or dark theme;
// the width follows the chart's box. The static SVG <img> stays the fallback if anything fails (and
// in print). Specs come from this site only; their data is inline; the loader refuses other origins.
(function () {
  'use strict';
  var me = document.currentScript;
  var figs = Array.prototype.slice.call(document.querySelectorAll('figure.result-chart[data-vega]'));
  if (!figs.length || !me || !window.fetch) return;
  var origin = window.location.origin;
  // the spec's colour tokens (wirespeed/charts/theme.py) and the CSS variable each stands for
  var TOKENS = { '#1b1d1f': '--fg', '#59606a': '--muted', '#d5d9de': '--border', '#ffffff': '--bg', '#000000': '--fg' };
  var runtime = null;

  function script(src, integrity) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = src;
      if (integrity) { s.integrity = integrity; s.crossOrigin = 'anonymous'; }
      s.onload = resolve;
      s.onerror = function () { s.remove(); reject(new Error('could not load ' + src)); };
      document.head.appendChild(s);
    });
  }
  function vega() {
    if (!runtime) {
      runtime = script(me.getAttribute('data-vega'), me.getAttribute('data-vega-integrity')).then(function () {
        if (!window.wirespeedVega) throw new Error('Vega did not load');
        return window.wirespeedVega;
      });
      runtime.catch(function () { runtime = null; });  // a failed load is tried again by the next chart, not remembered
    }
    return runtime;
  }
  function sameOrigin(href) {
    try { return new URL(href, window.location.href).origin === origin; } catch (e) { return false; }
  }
  function palette() {
    var css = getComputedStyle(document.documentElement);
    var out = {};
    Object.keys(TOKENS).forEach(function (t) { out[t] = css.getPropertyValue(TOKENS[t]).trim() || t; });
    return out;
  }
  function recolour(node, map) {
    if (typeof node === 'string') { var v = map[node.toLowerCase()]; return v === undefined ? node : v; }
    if (Array.isArray(node)) return node.map(function (n) { return recolour(n, map); });
    if (node && typeof node === 'object') {
      var out = {};
      for (var k in node) if (Object.prototype.hasOwnProperty.call(node, k)) out[k] = k === 'values' ? node[k] : recolour(node[k], map);
      return out;
    }
    return node;
  }
  // The width signal follows the box we measure (not window resizes), so stacked panels fit too. Nothing is cut:
  // the title and subtitle wrap onto as many lines as the box needs (signals ws_title, ws_subtitle, set by fit),
  // and a legend takes as many columns as its longest label leaves room for, its labels as long as the plot.
  var ruler = null;
  function textWidth(text, font) {
    ruler = ruler || document.createElement('canvas').getContext('2d');
    ruler.font = font;
    return ruler.measureText(text).width;
  }
  function wrap(text, font, width) {
    if (!text) return text;
    var lines = [], line = '';
    String(text).split(' ').forEach(function (w) {
      var t = line ? line + ' ' + w : w;
      if (line && textWidth(t, font) > width) { lines.push(line); line = w; } else line = t;
    });
    if (line) lines.push(line);
    return lines.length > 1 ? lines : (lines[0] || '');
  }
  function ownWidth(spec) {
    var family = getComputedStyle(document.body).fontFamily;
    var cfg = spec.config || {};
    var tcfg = cfg.title || {}, lcfg = cfg.legend || {};
    var signals = spec.signals = spec.signals || [];
    var ws = { family: family, pad: 2 * (typeof spec.padding === 'number' ? spec.padding : 8) };
    signals.forEach(function (s) {
      if (s.name === 'width') { delete s.on; delete s.init; s.value = 300; }
    });
    if (spec.title && typeof spec.title === 'object' && !Array.isArray(spec.title)) {
      var t = spec.title;
      delete t.limit;
      if (Array.isArray(t.text)) t.text = t.text.join(' ');  // wrapped for the static chart; wrapped again here to this box
      if (Array.isArray(t.subtitle)) t.subtitle = t.subtitle.join(' ');
      ws.title = { text: t.text, font: (tcfg.fontWeight || 'bold') + ' ' + (tcfg.fontSize || 14) + 'px ' + family };
      signals.push({ name: 'ws_title', value: t.text });
      t.text = { signal: 'ws_title' };
      if (t.subtitle) {
        ws.subtitle = { text: t.subtitle, font: (tcfg.subtitleFontSize || 11) + 'px ' + family };
        signals.push({ name: 'ws_subtitle', value: t.subtitle });
        t.subtitle = { signal: 'ws_subtitle' };
      }
    }
    var labelFont = (lcfg.labelFontSize || 11) + 'px ' + family;
    (function walk(node) {
      if (!node || typeof node !== 'object') return;
      var scales = {};
      (spec.scales || []).concat(node.scales || []).forEach(function (sc) { scales[sc.name] = sc; });
      (node.legends || []).forEach(function (l) {
        var sc = scales[l.fill || l.stroke || l.shape || l.strokeDash || l.size || ''];
        var labels = sc && Array.isArray(sc.domain) ? sc.domain : null;
        var longest = labels ? Math.max.apply(null, labels.map(function (x) { return textWidth(String(x), labelFont); })) : 170;
        var column = Math.ceil(longest + 16 + 4 + 12);  // symbol, its offset, the gap to the next column
        l.columns = { signal: 'max(1, floor(width / ' + column + '))' };
        l.labelLimit = { signal: 'max(60, width - 24)' };
      });
      (node.axes || []).forEach(function (a) {  // categories under the plot turn when they would not fit side by side
        var sc = scales[a.scale];
        if (a.orient !== 'bottom' || !sc || (sc.type !== 'band' && sc.type !== 'point')) return;
        a.labelAngle = { signal: 'ws_angle' };
        a.labelAlign = { signal: "ws_angle ? 'right' : 'center'" };
        a.labelBaseline = { signal: "ws_angle ? 'middle' : 'top'" };
        ws.turns = true;
      });
      (node.marks || []).forEach(walk);
    })(spec);
    if (ws.turns) signals.push({ name: 'ws_angle', value: 0 });
    spec._ws = ws;
    return spec;
  }
  function retitle(v, ws, box) {
    if (!ws) return;
    var room = Math.max(120, box - ws.pad);
    if (ws.title) v.signal('ws_title', wrap(ws.title.text, ws.title.font, room));
    if (ws.subtitle) v.signal('ws_subtitle', wrap(ws.subtitle.text, ws.subtitle.font, room));
  }

  var tip = null;
  function tooltip(handler, event, item, value) {
    if (!tip) {
      tip = document.createElement('div');
      tip.className = 'chart-tip';
      tip.setAttribute('role', 'tooltip');
      document.body.appendChild(tip);
    }
    if (value == null || value === '') { tip.hidden = true; return; }
    tip.textContent = '';
    var rows = typeof value === 'object' ? value : { '': value };
    Object.keys(rows).forEach(function (k) {
      var line = document.createElement('div');
      if (k) { var b = document.createElement('b'); b.textContent = k + ': '; line.appendChild(b); }
      line.appendChild(document.createTextNode(String(rows[k])));
      tip.appendChild(line);
    });
    tip.hidden = false;
    var x = event.clientX + 12, y = event.clientY + 12;
    var w = tip.offsetWidth, h = tip.offsetHeight;
    if (x + w > window.innerWidth - 4) x = Math.max(4, event.clientX - w - 12);
    if (y + h > window.innerHeight - 4) y = Math.max(4, event.clientY - h - 12);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  }

  // Each spec file (a set's bundle, or a single spec) is fetched once per page; a failed fetch is tried again, not remembered.
  var files = {};
  function getJson(url) {
    var got = files[url] || (files[url] = fetch(url, { credentials: 'same-origin' }).then(function (r) {
      if (!r.ok) throw new Error(url + ': HTTP ' + r.status);
      return r.json();
    }));
    got.catch(function () { if (files[url] === got) delete files[url]; });
    return got;
  }
  // A chart's spec: "<bundle>#<chart id>" names it inside its set's bundle (one file for all its charts, each value
  // they share said once: wirespeed/site/data.py packed_specs), a URL without a fragment is a spec's own file.
  // A chart gets its own copy of every part, so that no view touches another's.
  function specOf(href) {
    var at = href.indexOf('#');
    if (at < 0) return getJson(href);
    var url = href.slice(0, at), id = decodeURIComponent(href.slice(at + 1));
    return getJson(url).then(function (all) {
      var has = Object.prototype.hasOwnProperty;
      if (!all || !all.charts || !has.call(all.charts, id)) throw new Error(url + ': no chart ' + id);
      var packed = all.charts[id], spec = {};
      function part(i) {
        if (typeof i !== 'number' || !(i >= 0 && i < all.parts.length)) throw new Error(url + ': chart ' + id + ' names no part ' + i);
        return JSON.parse(JSON.stringify(all.parts[i]));
      }
      Object.keys(packed).forEach(function (k) {
        spec[k] = Array.isArray(packed[k]) ? packed[k].map(part) : part(packed[k]);
      });
      return spec;
    });
  }
  function fit(fig) {
    var v = fig._view, live = fig.querySelector('.chart-live');
    if (!v || !live) return Promise.resolve();
    var box = Math.floor(live.clientWidth);
    if (box <= 0) return Promise.resolve();
    fig._fitted = null;  // the box it is laid out for: known once this fit is done
    retitle(v, fig._ws, box);
    if (fig._ws && fig._ws.turns) v.signal('ws_angle', 0);  // level again, turned below only if the labels need it
    v.signal('width', box);
    return v.runAsync().then(function () {
      var svg = live.querySelector('svg');
      var extra = svg ? Math.ceil(parseFloat(svg.getAttribute('width')) - box) : 0;
      if (extra > 0) { v.signal('width', Math.max(80, box - extra)); return v.runAsync(); }
    }).then(function () { return settle(v, live, 0, null); }).then(function () {
      // a category label the axis had to leave out (Vega hides one that would overlap another): turn them all
      var ws = fig._ws;
      if (!ws || !ws.turns) return;
      return (function turn(angles) {
        var hidden = [].some.call(live.querySelectorAll('.role-axis-label text'), function (t) { return t.getAttribute('opacity') === '0'; });
        if (!hidden || !angles.length) return;
        v.signal('ws_angle', angles[0]);
        return settle(v, live, 0, null).then(function () { return turn(angles.slice(1)); });
      })([-40, -90]);
    }).then(function () { if (fig._view === v) fig._fitted = box; });
  }
  // A legend that took more rows after the width changed needs the view laid out again, twice, to grow with it:
  // passes until the height holds still (four at most).
  function settle(v, live, pass, before) {
    return v.resize().runAsync().then(function () {
      var svg = live.querySelector('svg');
      var after = svg ? svg.getAttribute('height') : null;
      if (pass < 3 && (pass < 1 || after !== before)) return settle(v, live, pass + 1, after);
    });
  }
  function render(fig) {
    var href = fig.getAttribute('data-vega');
    var live = fig.querySelector('.chart-live');
    if (!href || !live || !sameOrigin(href)) return;
    Promise.all([vega(), specOf(href)]).then(function (got) {
      var V = got[0];
      var s = ownWidth(recolour(got[1], palette()));
      fig._ws = s._ws;
      delete s._ws;
      delete s.description; // the page's alt text describes the chart (aria-describedby)
      var base = V.loader();
      var loader = Object.create(base);
      loader.sanitize = function (uri, options) {
        var url = new URL(uri, window.location.href);
        if (url.origin !== origin) return Promise.reject(new Error('wirespeed: refusing to load ' + url.href + ' (not from this site)'));
        return base.sanitize(url.pathname + url.search, options);
      };
      if (fig._view) fig._view.finalize();
      live.hidden = false;
      live.textContent = '';
      var view = new V.View(V.parse(s, { font: getComputedStyle(document.body).fontFamily }, { ast: true }),
        { renderer: 'svg', container: live, hover: true, loader: loader, expr: V.expressionInterpreter, logLevel: V.Error });
      view.tooltip(tooltip);
      fig._view = view;
      return fit(fig).then(function () {
        var svg = live.querySelector('svg');
        if (svg) { svg.setAttribute('aria-hidden', 'true'); svg.removeAttribute('aria-label'); svg.removeAttribute('role'); }
        fig.classList.add('is-live');
        fig.classList.remove('is-pending');
      });
    }).catch(function (err) {
      live.hidden = true;
      fig.classList.remove('is-live', 'is-pending');
      if (window.console) console.warn('wirespeed: chart kept static:', err && err.message ? err.message : err);
      fig._tries = (fig._tries || 0) + 1;
      if (fig._tries < 3 && io) { fig._started = false; io.observe(fig); } // looked at again, it tries again (twice)
    });
  }

  // A chart still far below the fold goes live before its static SVG would load: hide that image
  // (a lazy image that is not displayed is not fetched) and keep its room; it comes back if Vega fails.
  figs.forEach(function (f) {
    var img = f.querySelector('img.chart-static');
    if (img && !img.complete && f.getBoundingClientRect().top > window.innerHeight + 300) f.classList.add('is-pending');
  });

  function start(fig) {
    if (fig._started) return;
    fig._started = true;
    render(fig);
  }
  var io = null;
  if ('IntersectionObserver' in window) {
    io = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) { io.unobserve(e.target); start(e.target); } });
    }, { rootMargin: '200px 0px' });
    figs.forEach(function (f) { io.observe(f); });
  } else {
    figs.forEach(start);
  }
  // A change of size lays the live charts out again once it has stopped (120 ms). Until they are laid out, the page says
  // so (data-charts-refitting on <html>), so that whoever reads the charts' layout (a print, a test) can wait for it.
  var pending = null, root = document.documentElement;
  function refit() {
    if (pending) clearTimeout(pending);
    root.setAttribute('data-charts-refitting', '');
    pending = setTimeout(function () {
      var mine = pending;
      // only the charts whose box changed since they were laid out for it (the observer also reports each chart once
      // when it starts watching, and again when a chart grows taller, neither of which changes its width)
      Promise.all(figs.map(function (f) {
        var live = f.querySelector('.chart-live');
        return f._view && !(live && f._fitted === Math.floor(live.clientWidth)) ? fit(f) : null;
      })).then(done, done);
      function done() {
        if (pending === mine) { pending = null; root.removeAttribute('data-charts-refitting'); }
      }
    }, 120);
  }
  if ('ResizeObserver' in window) {
    var ro = new ResizeObserver(refit);
    figs.forEach(function (f) { ro.observe(f); });
  } else {
    window.addEventListener('resize', refit);
  }
  document.addEventListener('wirespeed:theme', function () {
    figs.forEach(function (f) { if (f._view) render(f); });
  });
})();
