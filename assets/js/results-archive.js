// The measurements browser of the results page and the compare page: a form (device, test, frame size) that shows the archive's rows.
// Small: the Parquet reader (js/archive-browser.js, with hyparquet) is loaded only when the reader opens the
// browser. Without JavaScript the section stays hidden and the page lists every result set.
import { loadScript, textTable } from './lib/datatable.js';

(function () {
  'use strict';
  var root = document.getElementById('archive-browser');
  if (!root) return;
  var open = document.getElementById('archive-open');
  var form = document.getElementById('archive-form');
  var status = document.getElementById('archive-status');
  var out = document.getElementById('archive-out');
  var base = root.getAttribute('data-archive');
  var sets = root.getAttribute('data-sets');
  var compare = root.hasAttribute('data-compare');
  var MAX_ROWS = 1000;
  var files = null;
  var latest = 0;  // the run whose answer is shown: an earlier one that ends later is dropped
  var LABELS = { slug: 'Result set', device: 'Device', test: 'Test', frame_size: 'Frame (bytes)', imix: 'IMIX', load_pct: 'Load (%)',
    direction: 'Direction', variant: 'Variant', trial: 'Trial', throughput_fps: 'Throughput (frames/s)',
    throughput_line_rate_pct: 'Throughput (% of line rate)', loss_pct: 'Loss (%)', latency_avg_s: 'Average latency (s)' };

  function say(t) { status.textContent = t; }

  function fill(select, values) {
    values.forEach(function (v) {
      var o = document.createElement('option');
      o.value = v;
      o.textContent = v;
      select.appendChild(o);
    });
  }

  function uniq(list, key) {
    var seen = {};
    list.forEach(function (f) { if (f[key] != null) seen[f[key]] = true; });
    return Object.keys(seen).sort();
  }

  function start() {
    open.disabled = true;
    say('Loading the Parquet reader…');
    loadScript(root.getAttribute('data-reader'), root.getAttribute('data-reader-integrity')).then(function () {
      return window.wirespeedArchive.index(base);
    }).then(function (list) {
      files = list;
      fill(form.elements.device, uniq(files, 'device'));
      fill(form.elements.test, uniq(files, 'test'));
      open.hidden = true;
      form.hidden = false;
      say(files.length + ' Parquet files of measurements. Choose a device, a test or a frame size.');
    }).catch(function (e) {
      open.disabled = false;
      say('The archive could not be read: ' + e.message);
    });
  }

  function render(rows, columns) {
    out.replaceChildren(textTable(columns, rows, MAX_ROWS, function (c) { return LABELS[c] || c; }, function (td, r, c) {
      var v = r[c];
      if (c === 'slug') {
        var a = document.createElement('a');
        a.href = sets + encodeURIComponent(v) + '/';
        a.textContent = v;
        td.appendChild(a);
        return null;
      }
      td.textContent = v == null ? '' : String(v);
      return v;
    }, 'Measurements from the archive'));
  }

  function run(e) {
    if (e) e.preventDefault();
    if (!files) return;
    var want = { device: form.elements.device.value, test: form.elements.test.value, frameSize: form.elements.frame_size.value };
    if (compare) {  // the compare page: only the sets chosen there (?sets=a,b, kept in the URL by js/compare.js)
      want.slugs = (new URLSearchParams(window.location.search).get('sets') || '').split(',').filter(Boolean);
      if (!want.slugs.length) { out.replaceChildren(); say('Choose result sets above first.'); return; }
    }
    var mine = ++latest;
    say('Reading…');
    window.wirespeedArchive.query(base, files, want).then(function (res) {
      if (mine !== latest) return;
      var rows = res.rows;
      var used = ['slug', 'device', 'test'].concat(window.wirespeedArchive.COLUMNS.filter(function (c) {
        return c !== 'slug' && rows.some(function (r) { return r[c] != null; });
      }));
      var setCount = {};
      rows.forEach(function (r) { setCount[r.slug] = true; });
      render(rows, used);
      say(rows.length + ' row' + (rows.length === 1 ? '' : 's') + ' from ' + Object.keys(setCount).length + ' result set' +
        (Object.keys(setCount).length === 1 ? '' : 's') + ' (' + res.files + ' file' + (res.files === 1 ? '' : 's') + ' read)' +
        (rows.length > MAX_ROWS ? '; the first ' + MAX_ROWS + ' shown.' : '.'));
    }).catch(function (err) {
      if (mine !== latest) return;
      out.replaceChildren();
      say('The archive could not be read: ' + err.message);
    });
  }

  root.hidden = false;
  open.addEventListener('click', start);
  form.addEventListener('submit', run);
  form.addEventListener('change', run);
})();
