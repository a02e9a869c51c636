// Collapsible scenario sections of a set page (<details class="scenario">): a link to a scenario,
// or to anything inside one, opens it; "Open all" / "Close all" toggle every section.
(function () {
  'use strict';
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) return;
    for (var d = el; d; d = d.parentElement) {
      if (d.tagName === 'DETAILS') d.open = true;
    }
    el.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);
  if (location.hash) reveal();
  var bar = document.getElementById('scenario-toggle');
  if (!bar) return;
  bar.hidden = false;
  bar.querySelectorAll('button[data-open]').forEach(function (btn) {
    btn.addEventListener('click', function () {
      var open = btn.getAttribute('data-open') === 'true';
      document.querySelectorAll('details.scenario').forEach(function (d) { d.open = open; });
    });
  });
})();
