// The compare page's overlaid chart: the table the reader chose, drawn across devices (bars for one frame
// size or load, else one line per device over frame sizes or loads). Vega, Vega-Lite and vega-embed (this
// site's pinned copies, with their integrity hashes) are loaded only on this page and only when the chart
// is about to scroll into view. Vega runs with its expression interpreter (ast), as the CSP requires.
(function () {
  'use strict';
  var loading = null;
  var pending = null;

  function load(list) {
    if (window.vegaEmbed && window.vega && window.vegaLite) return Promise.resolve();
    if (loading) return loading;
    var parts = (list || '').split('|').filter(Boolean);
    loading = parts.reduce(function (p, item) {
      return p.then(function () {
        return new Promise(function (resolve, reject) {
          var bits = item.split(' ');
          var s = document.createElement('script');
          s.src = bits[0];
          if (bits[1]) s.integrity = bits[1];
          s.onload = resolve;
          s.onerror = function () { reject(new Error('could not load ' + bits[0])); };
          document.head.appendChild(s);
        });
      });
    }, Promise.resolve());
    return loading;
  }
  function css(name, fallback) {
    var v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return v || fallback;
  }
  function spec(t, width) {
    var values = [];
    t.rows.forEach(function (r) {
      r.cells.forEach(function (c, i) {
        if (c) values.push({ x: t.columns[i].label, series: r.label, value: c.value, printed: c.text + ' ' + t.unit + ' (' + c.ratio_text + ')' });
      });
    });
    var order = t.rows.map(function (r) { return r.label; });
    var fg = css('--fg', '#1b1d1f'), muted = css('--muted', '#59606a'), grid = css('--border', '#d5d9de');
    var title = t.label + ' (' + t.unit + ')';
    var tooltip = [{ field: 'series', title: 'Device' }, { field: 'x', title: t.x === 'frame' ? 'Frame size' : 'Load' }, { field: 'printed', title: t.label }];
    var layers;
    if (t.columns.length === 1) {
      // one band per device: its label above its bar (over the whole width, a line per part), so nothing is cut on a phone
      var y = { field: 'series', type: 'nominal', sort: order, title: null, axis: null };
      layers = [
        { mark: { type: 'bar', height: { band: 0.3 }, yOffset: 12 }, encoding: {
          y: y, x: { field: 'value', type: 'quantitative', title: title + ' at ' + t.columns[0].label, axis: { tickCount: Math.max(3, Math.floor(width / 70)) } },
          color: { field: 'series', type: 'nominal', sort: order, legend: null }, tooltip: tooltip } },
        { mark: { type: 'text', align: 'left', baseline: 'top', dy: -22, fontSize: 12, color: fg, limit: Math.max(120, width - 8), lineHeight: 15 },
          transform: [{ calculate: "split(datum.series, ' · ')", as: 'lines' }],
          encoding: { y: y, x: { datum: 0, type: 'quantitative' }, text: { field: 'lines' } } }];
    } else {
      layers = [{ mark: { type: 'line', point: { filled: true, size: 50 }, strokeWidth: 2 }, encoding: {
        x: { field: 'x', type: 'ordinal', sort: t.columns.map(function (c) { return c.label; }), title: t.x === 'frame' ? 'Frame size' : 'Offered load', axis: { labelAngle: -40 } },
        y: { field: 'value', type: 'quantitative', title: title },
        color: { field: 'series', type: 'nominal', sort: order, title: null, legend: { orient: 'bottom', direction: 'vertical', labelLimit: Math.max(160, width - 40), labelExpr: "split(datum.label, ' · ')" } },
        strokeDash: { field: 'series', type: 'nominal', sort: order, legend: null }, shape: { field: 'series', type: 'nominal', sort: order, legend: null },
        tooltip: tooltip } }];
    }
    if (t.unit === '% of line rate') {
      var rule = { mark: { type: 'rule', strokeDash: [5, 4], color: muted }, data: { values: [{ y: 100, label: 'line rate' }] },
                   encoding: { y: { field: 'y', type: 'quantitative' } } };
      if (t.columns.length === 1) rule.encoding = { x: { field: 'y', type: 'quantitative' } };
      layers.unshift(rule);
    }
    return {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      description: t.statement + ' ' + values.map(function (v) { return v.series + ', ' + v.x + ': ' + v.printed; }).join('; '),
      width: 'container', height: t.columns.length === 1 ? 18 + order.reduce(function (n, l) { return n + 30 + 15 * l.split(' · ').length; }, 0) : 280,
      autosize: { type: 'fit-x', contains: 'padding' },
      data: { values: values }, layer: layers,
      config: { background: null, font: getComputedStyle(document.body).fontFamily,
                axis: { labelFontSize: 12, titleFontSize: 12, labelColor: fg, titleColor: fg, gridColor: grid, domainColor: muted, tickColor: muted },
                legend: { labelFontSize: 12, titleFontSize: 12, labelColor: fg, titleColor: fg, symbolStrokeWidth: 2 },
                view: { stroke: null } }
    };
  }
  function draw(fig, t, list) {
    var live = fig.querySelector('.chart-live');
    load(list).then(function () {
      var s = spec(t, live.clientWidth || 320);
      return window.vegaEmbed(live, s, { renderer: 'svg', actions: false, ast: true, logLevel: window.vega.Error });
    }).then(function (res) {
      if (fig._view) fig._view.finalize();
      fig._view = res.view;
      var svg = live.querySelector('svg');
      if (svg) { svg.setAttribute('role', 'img'); svg.setAttribute('aria-label', fig.getAttribute('data-alt')); }
      fig.classList.add('is-live');
    }).catch(function (err) {
      live.textContent = 'The chart could not be drawn (' + (err && err.message ? err.message : err) + '); the table above holds every figure.';
    });
  }
  window.wirespeedCompareChart = function (host, t, list) {
    var alt = t.label + ' (' + t.unit + '), ' + t.rows.length + ' rows: ' + t.rows.map(function (r) {
      return r.label + ' ' + r.cells.map(function (c, i) { return c ? t.columns[i].label + ' ' + c.text : null; }).filter(Boolean).join(', ');
    }).join('; ');
    var live = document.createElement('div');
    live.className = 'chart-live';
    var cap = document.createElement('figcaption');
    cap.textContent = t.statement;
    var fig = document.createElement('figure');
    fig.className = 'compare-chart';
    fig.id = 'compare-chart';
    fig.setAttribute('data-alt', alt);
    fig.appendChild(live);
    fig.appendChild(cap);
    var box = document.createElement('div');
    box.className = 'compare-charts';
    box.appendChild(fig);
    host.appendChild(box);
    if (pending) pending.disconnect();
    if (!('IntersectionObserver' in window)) { draw(fig, t, list); return; }
    pending = new IntersectionObserver(function (seen) {
      if (seen.some(function (s) { return s.isIntersecting; })) { pending.disconnect(); pending = null; draw(fig, t, list); }
    }, { rootMargin: '200px' });
    pending.observe(fig);
  };
  document.addEventListener('wirespeed:theme', function () {
    var fig = document.getElementById('compare-chart');
    if (fig && fig._view) document.dispatchEvent(new CustomEvent('wirespeed:compare-sets'));
  });
})();
