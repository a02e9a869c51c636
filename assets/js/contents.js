// The contents box of a long page: open beside the text on a wide screen (a sidebar), closed on a phone
// until asked; the link of the section in view is marked (aria-current).
(function () {
  'use strict';
  var box = document.getElementById('contents');
  if (!box) return;
  var wide = window.matchMedia('(min-width: 64em)');
  function fit() { box.open = wide.matches; }
  fit();
  if (wide.addEventListener) wide.addEventListener('change', fit);
  box.querySelector('summary').addEventListener('click', function (e) { if (wide.matches) e.preventDefault(); });
  box.addEventListener('click', function (e) { if (e.target.closest('a') && !wide.matches) box.open = false; });
  var links = Array.prototype.slice.call(box.querySelectorAll('a[href^="#"]'));
  var targets = links.map(function (a) { return document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1))); });
  if (typeof IntersectionObserver !== 'function') return;
  var current = null;
  var io = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (!e.isIntersecting) return;
      var i = targets.indexOf(e.target);
      if (i < 0) return;
      if (current) current.removeAttribute('aria-current');
      current = links[i];
      current.setAttribute('aria-current', 'true');
    });
  }, {rootMargin: '0px 0px -70% 0px'});
  targets.forEach(function (t) { if (t) io.observe(t); });
})();
