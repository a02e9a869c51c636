// Theme toggle: light/dark, remembered in localStorage ("wirespeed-theme").
// The stored choice is applied before first paint by an inline script in <head>;
// without a stored choice the OS setting (prefers-color-scheme) decides.
(function () {
  'use strict';
  var KEY = 'wirespeed-theme';
  var root = document.documentElement;
  var btn = document.getElementById('theme-toggle');
  var mq = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

  function current() {
    var t = root.getAttribute('data-theme');
    if (t === 'dark' || t === 'light') return t;
    return mq && mq.matches ? 'dark' : 'light';
  }
  function announce() {
    var dark = current() === 'dark';
    if (btn) {
      btn.setAttribute('aria-pressed', dark ? 'true' : 'false');
      btn.title = dark ? 'Switch to the light theme' : 'Switch to the dark theme';
    }
    document.dispatchEvent(new CustomEvent('wirespeed:theme', { detail: { theme: current() } }));
  }
  if (btn) {
    btn.hidden = false;
    btn.addEventListener('click', function () {
      var next = current() === 'dark' ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      try { localStorage.setItem(KEY, next); } catch (e) { /* private mode: not remembered */ }
      announce();
    });
  }
  if (mq && mq.addEventListener) {
    mq.addEventListener('change', function () { if (!root.hasAttribute('data-theme')) announce(); });
  }
  window.wirespeedTheme = current;
  announce();
})();
