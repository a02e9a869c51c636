// The SQL page: DuckDB-Wasm over the Parquet archive, loaded only when the reader presses the button that
// states the download (its size computed at build time from the files themselves). The archive's files
// (archive/index.json) are registered as HTTP files: DuckDB reads each file's footer and then only the
// byte ranges a query needs. Results are written as text, never as markup.
import { loadScript, textTable } from './lib/datatable.js';

(function () {
  'use strict';
  var root = document.getElementById('sql');
  if (!root) return;
  var load = document.getElementById('sql-load');
  var form = document.getElementById('sql-form');
  var input = document.getElementById('sql-query');
  var status = document.getElementById('sql-status');
  var out = document.getElementById('sql-out');
  var examples = document.querySelectorAll('[data-example]');
  var MAX_ROWS = 1000;
  var conn = null;

  function say(text) { status.textContent = text; }

  function absolute(url) { return new URL(url, window.location.href).href; }

  function quote(s) { return "'" + String(s).replace(/'/g, "''") + "'"; }

  function start() {
    load.disabled = true;
    say('Loading the SQL engine…');
    var D;
    return loadScript(root.getAttribute('data-runtime'), root.getAttribute('data-runtime-integrity')).then(function () {
      D = window.wirespeedDuckDB;
      var worker = new Worker(root.getAttribute('data-worker'));
      var db = new D.AsyncDuckDB(new D.VoidLogger(), worker);
      return db.instantiate(absolute(root.getAttribute('data-wasm'))).then(function () { return db; });
    }).then(function (db) {
      return fetch(root.getAttribute('data-archive') + 'index.json').then(function (r) {
        if (!r.ok) throw new Error('archive/index.json: HTTP ' + r.status);
        return r.json();
      }).then(function (index) {
        var base = absolute(root.getAttribute('data-archive'));
        var jobs = index.files.map(function (f) { return db.registerFileURL(f, base + f, D.DuckDBDataProtocol.HTTP, false); });
        return Promise.all(jobs).then(function () { return db.connect(); }).then(function (c) {
          conn = c;
          var views = index.tables.map(function (t) {
            var files = index.files.filter(function (f) { return f.indexOf(t + '/') === 0; }).map(quote);
            return 'CREATE VIEW ' + t + ' AS SELECT * FROM read_parquet([' + files.join(', ') + '], hive_partitioning = true)';
          });
          return views.reduce(function (p, sql) { return p.then(function () { return conn.query(sql); }); }, Promise.resolve());
        }).then(function () { return index; });
      });
    }).then(function (index) {
      load.hidden = true;
      form.querySelector('button[type=submit]').disabled = false;
      say('Ready: ' + index.tables.join(', ') + ' (' + index.files.length + ' Parquet files).');
      input.focus();
    }).catch(function (e) {
      load.disabled = false;
      say('The SQL engine could not start: ' + e.message);
    });
  }

  function cell(v) {
    if (v === null || v === undefined) return '';
    if (typeof v === 'object' && !(v instanceof Date)) return JSON.stringify(v, function (k, x) { return typeof x === 'bigint' ? x.toString() : x; });
    return String(v);
  }

  function render(table) {
    var names = table.schema.fields.map(function (f) { return f.name; });
    var rows = table.toArray().map(function (r) { return r.toJSON(); });
    out.replaceChildren(textTable(names, rows, MAX_ROWS, function (n) { return n; }, function (td, o, n) {
      td.textContent = cell(o[n]);
      return o[n];
    }));
    say(rows.length + ' row' + (rows.length === 1 ? '' : 's') + (rows.length > MAX_ROWS ? ' (the first ' + MAX_ROWS + ' shown)' : '') + '.');
  }

  function run(e) {
    if (e) e.preventDefault();
    if (!conn) return;
    say('Running…');
    conn.query(input.value).then(render).catch(function (err) {
      out.replaceChildren();
      say('Error: ' + err.message);
    });
  }

  form.hidden = false;
  load.addEventListener('click', start);
  form.addEventListener('submit', run);
  for (var i = 0; i < examples.length; i++) {
    examples[i].addEventListener('click', function (e) {
      input.value = e.currentTarget.getAttribute('data-example');
      if (conn) run(); else input.focus();
    });
  }
})();
