// Upgrade each static chart (<figure class="result-chart" data-spec>) to an
// interactive Vega-Lite view. The static SVG <img> stays in place until the
// view has rendered, and stays the fallback if anything fails (and in print).
// Specs come from this site only; their data is inline. The loader refuses
// any other origin, and Vega runs with its expression interpreter (no eval).
(function () {
  'use strict';
  if (!window.vegaEmbed || !window.vega) return;
  var origin = window.location.origin;
  var base = window.vega.loader();
  var loader = Object.create(base);
  loader.sanitize = function (uri, options) {
    var url = new URL(uri, window.location.href);
    if (url.origin !== origin) {
      return Promise.reject(new Error('wirespeed: refusing to load ' + url.href + ' (not from this site)'));
    }
    return base.sanitize(url.pathname + url.search, options);
  };

  function sameOrigin(href) {
    try { return new URL(href, window.location.href).origin === origin; } catch (e) { return false; }
  }
  function dark() {
    return (window.wirespeedTheme ? window.wirespeedTheme() : 'light') === 'dark';
  }
  var specs = {};
  var views = [];

  function render(fig) {
    var href = fig.getAttribute('data-spec');
    var live = fig.querySelector('.chart-live');
    if (!href || !live || !sameOrigin(href)) return;
    var spec = specs[href] || (specs[href] = fetch(href, { credentials: 'same-origin' }).then(function (r) {
      if (!r.ok) throw new Error(href + ': HTTP ' + r.status);
      return r.json();
    }));
    spec.then(function (s) {
      var copy = JSON.parse(JSON.stringify(s));
      // Vega puts the description on the chart's SVG as its accessible name.
      copy.description = live.getAttribute('data-alt') || copy.description || '';
      var opts = {
        renderer: 'svg',
        // spec warnings belong to the pipeline's chart checks, not the reader's console
        logLevel: window.vega.Error,
        ast: true,
        loader: loader,
        actions: { export: true, source: false, compiled: false, editor: false },
        tooltip: true,
        config: { background: null, font: getComputedStyle(document.body).fontFamily },
        i18n: { CLICK_TO_VIEW_ACTIONS: 'Export chart' }
      };
      if (dark()) opts.theme = 'dark';
      live.hidden = false;
      return window.vegaEmbed(live, copy, opts).then(function (res) {
        if (fig._view) fig._view.finalize();
        fig._view = res;
        var summaries = live.querySelectorAll('summary');
        for (var k = 0; k < summaries.length; k++) {
          summaries[k].setAttribute('aria-label', 'Export chart: ' + (live.getAttribute('data-title') || ''));
        }
        fig.classList.add('is-live');
        views.push(fig);
      });
    }).catch(function (err) {
      live.hidden = true;
      fig.classList.remove('is-live');
      if (window.console) console.warn('wirespeed: chart kept static:', err && err.message ? err.message : err);
    });
  }

  var figs = document.querySelectorAll('figure.result-chart[data-spec]');
  for (var i = 0; i < figs.length; i++) render(figs[i]);
  document.addEventListener('wirespeed:theme', function () {
    for (var j = 0; j < views.length; j++) render(views[j]);
  });
})();
