// What the archive browser (js/results-archive.js) and the SQL page (js/sql.js) share: loading a bundled
// script only when the reader asks for it (with its integrity), and writing query results as a table of
// text, never markup. Both are bundled by Hugo's js.Build (layouts/_partials/script.html, "bundle").

// Load a script (its Subresource Integrity given) and resolve when it has run.
export function loadScript(src, integrity) {
  return new Promise(function (resolve, reject) {
    var s = document.createElement('script');
    s.src = src;
    s.integrity = integrity;
    s.onload = resolve;
    s.onerror = function () { reject(new Error('could not load ' + src)); };
    document.head.appendChild(s);
  });
}

// A <table> of at most `max` rows: `columns` their keys, `label(column)` each header's text, and
// `fill(td, row, column)` each cell's (as text or child nodes). A number gets the class num (right-aligned).
export function textTable(columns, rows, max, label, fill, caption) {
  var t = document.createElement('table');
  if (caption) t.createCaption().textContent = caption;
  var head = t.createTHead().insertRow();
  columns.forEach(function (c) {
    var th = document.createElement('th');
    th.scope = 'col';
    th.textContent = label(c);
    head.appendChild(th);
  });
  var body = t.createTBody();
  rows.slice(0, max).forEach(function (r) {
    var tr = body.insertRow();
    columns.forEach(function (c) {
      var td = tr.insertCell();
      var v = fill(td, r, c);
      if (typeof v === 'number' || typeof v === 'bigint') td.className = 'num';
    });
  });
  return t;
}
