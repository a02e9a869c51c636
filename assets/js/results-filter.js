// Filter the results list by facet. State lives in the query string
// (?vendor=Cisco&rfc=2544) so a view can be shared and reloading restores it.
// Without JavaScript the form stays hidden and every result set is listed.
(function () {
  'use strict';
  var form = document.getElementById('filters');
  var list = document.getElementById('result-list');
  if (!form || !list) return;
  var status = document.getElementById('filter-status');
  var empty = document.getElementById('filter-empty');
  var selects = form.querySelectorAll('select[data-facet]');
  var cards = list.querySelectorAll('.card');

  function readURL() {
    var q = new URLSearchParams(window.location.search);
    for (var i = 0; i < selects.length; i++) {
      var v = q.get(selects[i].name) || '';
      var ok = false;
      for (var j = 0; j < selects[i].options.length; j++) if (selects[i].options[j].value === v) ok = true;
      selects[i].value = ok ? v : '';
    }
  }
  function writeURL() {
    var q = new URLSearchParams(window.location.search);
    for (var i = 0; i < selects.length; i++) {
      if (selects[i].value) q.set(selects[i].name, selects[i].value); else q.delete(selects[i].name);
    }
    var s = q.toString();
    history.replaceState(null, '', window.location.pathname + (s ? '?' + s : '') + window.location.hash);
  }
  function matches(card) {
    for (var i = 0; i < selects.length; i++) {
      var want = selects[i].value;
      if (!want) continue;
      var have = card.getAttribute('data-' + selects[i].getAttribute('data-facet')) || '';
      // list-valued facets are space-padded token lists: " 2544 2889 "
      if (have.charAt(0) === ' ' ? have.indexOf(' ' + want + ' ') < 0 : have !== want) return false;
    }
    return true;
  }
  function apply() {
    var shown = 0;
    for (var i = 0; i < cards.length; i++) {
      var ok = matches(cards[i]);
      cards[i].hidden = !ok;
      if (ok) shown++;
    }
    var active = 0;
    for (var k = 0; k < selects.length; k++) if (selects[k].value) active++;
    if (status) {
      status.textContent = active
        ? shown + ' of ' + cards.length + ' result set' + (cards.length === 1 ? '' : 's') + ' match'
        : cards.length + ' result set' + (cards.length === 1 ? '' : 's');
    }
    if (empty) empty.hidden = shown !== 0;
  }

  form.hidden = false;
  readURL();
  apply();
  document.documentElement.classList.remove('js-query');  // filtered: the list may show (head/theme-init-js.html)
  form.addEventListener('change', function () { writeURL(); apply(); });
  form.addEventListener('submit', function (e) { e.preventDefault(); writeURL(); apply(); });
  form.addEventListener('reset', function () {
    setTimeout(function () { writeURL(); apply(); }, 0);
  });
  window.addEventListener('popstate', function () { readURL(); apply(); });
})();
