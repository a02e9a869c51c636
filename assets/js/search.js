// Site search with the Pagefind index (public/pagefind/, built after Hugo), as the reader types: each keystroke
// waits for a short pause, only the newest query's answer is drawn, and the address keeps the query (?q=) so a
// search can be shared and reloaded. Results are drawn with DOM nodes only: the title, what kind of page it is,
// and Pagefind's excerpt (its text and its <mark>s).
(function () {
  'use strict';
  var form = document.getElementById('search-form');
  if (!form) return;
  var input = document.getElementById('search-q');
  var status = document.getElementById('search-status');
  var list = document.getElementById('search-results');
  var base = form.getAttribute('data-base') || '/';
  var engine = null;
  var asked = 0;
  var timer = null;
  var PAUSE = 180;  // ms after the last keystroke
  var KINDS = [[/^reviews\/[^/]+\/$/, 'Review'], [/^results\/[^/]+\/$/, 'Result set'], [/^results\/[^/]+\/comparisons\//, 'Comparison'],
               [/^results\/[^/]+\/[^/]+\/$/, 'Test'], [/^compare\//, 'Compare'], [/^reviews\/$/, 'Reviews'], [/^results\/$/, 'Results']];

  function load() {
    if (!engine) {
      var bundle = form.getAttribute('data-pagefind');
      var folder = bundle.slice(0, bundle.lastIndexOf('/') + 1);
      var ranking = { pageLength: 0.1, termSaturation: 0.8 };  // the words' weight (titles, the device) more than a page's length
      engine = import(bundle).then(function (pf) {
        return pf.options({ baseUrl: base, ranking: ranking }).then(function () {
          // a large archive's sets are indexed in slices (wirespeed/system/search.py): merged here into one index
          return fetch(folder + 'slices.json').then(function (r) { return r.ok ? r.json() : []; }).then(function (slices) {
            return Promise.all(slices.map(function (s) { return pf.mergeIndex(folder + s, { baseUrl: base }); }));
          });
        }).then(function () { return pf; });
      });
    }
    return engine;
  }
  function kindOf(url) {
    var path = url.indexOf(base) === 0 ? url.slice(base.length) : url.replace(/^\//, '');
    for (var i = 0; i < KINDS.length; i++) if (KINDS[i][0].test(path)) return KINDS[i][1];
    return 'Page';
  }
  function excerpt(html) {  // Pagefind's excerpt: escaped text with <mark> around the hits
    var out = document.createDocumentFragment();
    var doc = new DOMParser().parseFromString('<p>' + html + '</p>', 'text/html');
    doc.body.firstChild.childNodes.forEach(function (n) {
      if (n.nodeName === 'MARK') { var m = document.createElement('mark'); m.textContent = n.textContent; out.appendChild(m); }
      else out.appendChild(document.createTextNode(n.textContent));
    });
    return out;
  }
  // Pages that name what was asked for in their title and are about that device first, then those naming it in
  // their title, then those about the device (its tests), then the rest; within each, a set's page and its review
  // before its tests and comparisons, then Pagefind's order.
  var RANKED = 40;
  var ORDER = ['Result set', 'Review', 'Test', 'Comparison'];
  function rank(q, items) {
    var words = q.toLowerCase().split(/\s+/).filter(Boolean);
    function names(text) { text = (text || '').toLowerCase(); return words.every(function (w) { return text.indexOf(w) >= 0; }); }
    return items.map(function (d, i) {
      var title = names(d.meta && d.meta.title), device = names(d.meta && d.meta.device);
      var kind = ORDER.indexOf(kindOf(d.url));
      return { d: d, i: i, tier: title && device ? 0 : title ? 1 : device ? 2 : 3, kind: kind < 0 ? ORDER.length : kind };
    }).sort(function (a, b) { return a.tier - b.tier || a.kind - b.kind || a.i - b.i; }).map(function (x) { return x.d; });
  }
  function draw(q, res, items) {
    list.textContent = '';
    status.textContent = res.results.length + (res.results.length === 1 ? ' page' : ' pages') + ' found for \u201c' + q + '\u201d' + (res.results.length > 20 ? ' (first 20 shown)' : '');
    items.forEach(function (d) {
      var li = document.createElement('li');
      var head = document.createElement('p');
      head.className = 'search-head';
      var a = document.createElement('a');
      a.href = d.url;
      a.textContent = (d.meta && d.meta.title) || d.url;
      var kind = document.createElement('span');
      kind.className = 'search-kind';
      kind.textContent = kindOf(d.url);
      head.appendChild(a);
      head.appendChild(document.createTextNode(' '));
      head.appendChild(kind);
      var p = document.createElement('p');
      p.className = 'search-excerpt';
      p.appendChild(excerpt(d.excerpt || ''));
      li.appendChild(head);
      li.appendChild(p);
      list.appendChild(li);
    });
  }
  function run(q) {
    var mine = ++asked;
    if (!q) { list.textContent = ''; status.textContent = ''; return; }
    status.textContent = 'Searching\u2026';
    load().then(function (pf) { return pf.search(q); }).then(function (res) {
      if (mine !== asked || !res) return null;  // a newer query is on its way
      return Promise.all(res.results.slice(0, RANKED).map(function (r) { return r.data(); })).then(function (items) {
        if (mine === asked) draw(q, res, rank(q, items).slice(0, 20));
      });
    }).catch(function (e) { if (mine === asked) status.textContent = 'Search is not available: ' + e.message; });
  }
  function remember(q) {
    history.replaceState(null, '', q ? '?q=' + encodeURIComponent(q) : location.pathname);
  }
  input.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () { var q = input.value.trim(); remember(q); run(q); }, PAUSE);
  });
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    clearTimeout(timer);
    var q = input.value.trim();
    remember(q);
    run(q);
  });
  input.addEventListener('focus', function () { load(); }, { once: true });  // the index starts loading as the reader arrives in the box
  var q0 = new URLSearchParams(location.search).get('q');
  if (q0) { input.value = q0; run(q0.trim()); }
})();
