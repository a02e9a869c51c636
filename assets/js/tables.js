// Tables (and drawings) wider than their box scroll inside it, and say so (issue 23): the box gets a frame whose right edge
// shows a shadow while more columns lie to the right, the key column (sticky) a shadow while columns are
// hidden under it on the left, and a hint under the table. Tables made later (the compare page's) get the same.
(function () {
  'use strict';
  var SELECTOR = '.table-wrap, .table-scroll, .diagram-box';  // a drawing wider than the screen (the test bed's) scrolls too
  var seen = typeof WeakSet === 'function' ? new WeakSet() : null;

  function update(box) {
    var frame = box.parentElement;
    var room = box.scrollWidth - box.clientWidth;
    var over = room > 1;
    frame.classList.toggle('is-scrollable', over);
    frame.classList.toggle('more-left', over && box.scrollLeft > 1);
    frame.classList.toggle('more-right', over && box.scrollLeft < room - 1);
  }

  function frame(box) {
    if (!seen || seen.has(box)) return;
    seen.add(box);
    var f = box.parentElement;
    if (!f.classList.contains('table-frame')) {
      var focused = box.contains(document.activeElement) ? document.activeElement : null;
      f = document.createElement('div');
      f.className = 'table-frame';
      box.parentNode.insertBefore(f, box);
      f.appendChild(box);
      if (focused) focused.focus();  // moving the box took the keyboard's place away; give it back
      var hint = document.createElement('p');
      hint.className = 'table-hint';
      hint.setAttribute('aria-hidden', 'true');  // the region's own label names the table; the hint is for the eye
      hint.textContent = box.getAttribute('data-scroll-hint') || 'Scroll sideways for more columns \u2192';
      f.appendChild(hint);
    }
    box.addEventListener('scroll', function () { update(box); }, {passive: true});
    if (typeof ResizeObserver === 'function') new ResizeObserver(function () { update(box); }).observe(box);
    update(box);
  }

  function scan(root) {
    (root.querySelectorAll ? root : document).querySelectorAll(SELECTOR).forEach(frame);
  }

  scan(document);
  window.addEventListener('resize', function () { document.querySelectorAll(SELECTOR).forEach(update); });
  if (typeof MutationObserver === 'function') {
    new MutationObserver(function (records) {
      records.forEach(function (r) { r.addedNodes.forEach(function (n) { if (n.nodeType === 1) { if (n.matches(SELECTOR)) frame(n); scan(n); } }); });
    }).observe(document.body, {childList: true, subtree: true});
  }
})();
