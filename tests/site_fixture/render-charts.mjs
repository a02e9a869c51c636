// Render the static SVG of every hand-written Vega-Lite spec of the fixture
// (tests/site_fixture/site-static/results/*/charts/*.vl.json -> *.svg, and the compiled Vega
// spec the site loads, *.vg.json), the way
// the pipeline renders its own charts. Run from the repo root after `npm ci`:
//   node tests/site_fixture/render-charts.mjs
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vega from 'vega';
import * as vl from 'vega-lite';

const root = new URL('./site-static/results/', import.meta.url).pathname;
for (const slug of readdirSync(root)) {
  let files = [];
  try { files = readdirSync(join(root, slug, 'charts')); } catch { continue; }
  for (const f of files.filter((n) => n.endsWith('.vl.json'))) {
    const spec = JSON.parse(readFileSync(join(root, slug, 'charts', f), 'utf8'));
    writeFileSync(join(root, slug, 'charts', f.replace(/\.vl\.json$/, '.vg.json')), JSON.stringify(vl.compile(spec).spec) + '\n');
    if (spec.width === 'container') spec.width = 640; // no container outside a browser
    spec.background = '#ffffff';
    const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
    const svg = await view.toSVG();
    const out = join(root, slug, 'charts', f.replace(/\.vl\.json$/, '.svg'));
    writeFileSync(out, svg + '\n');
    view.finalize();
    console.log('wrote', out);
  }
}
