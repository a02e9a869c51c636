// Site search with the Pagefind index (public/pagefind/, built after Hugo). The query is read from
// ?q= and the form; results are drawn with DOM nodes only: the excerpt's text and its <mark>s.
(function () {
  'use strict';
  var form = document.getElementById('search-form');
  if (!form) return;
  var input = document.getElementById('search-q');
  var status = document.getElementById('search-status');
  var list = document.getElementById('search-results');
  var engine = null;

  function load() {
    if (!engine) {
      engine = import(form.getAttribute('data-pagefind')).then(function (pf) {
        return pf.options({ baseUrl: form.getAttribute('data-base') || '/' }).then(function () { return pf; });
      });
    }
    return engine;
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
  function run(q) {
    list.textContent = '';
    if (!q) { status.textContent = ''; return; }
    status.textContent = 'Searching…';
    load().then(function (pf) { return pf.search(q); }).then(function (res) {
      return Promise.all(res.results.slice(0, 20).map(function (r) { return r.data(); })).then(function (items) {
        status.textContent = res.results.length + (res.results.length === 1 ? ' page' : ' pages') + ' found for “' + q + '”' + (res.results.length > 20 ? ' (first 20 shown)' : '');
        items.forEach(function (d) {
          var li = document.createElement('li');
          var a = document.createElement('a');
          a.href = d.url;
          a.textContent = (d.meta && d.meta.title) || d.url;
          var p = document.createElement('p');
          p.appendChild(excerpt(d.excerpt || ''));
          li.appendChild(a);
          li.appendChild(p);
          list.appendChild(li);
        });
      });
    }).catch(function (e) { status.textContent = 'Search is not available: ' + e.message; });
  }
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    var q = input.value.trim();
    history.replaceState(null, '', '?q=' + encodeURIComponent(q));
    run(q);
  });
  var q0 = new URLSearchParams(location.search).get('q');
  if (q0) { input.value = q0; run(q0.trim()); }
})();
