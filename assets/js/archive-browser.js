// The results page's measurements browser, bundled by Hugo (js.Build, esbuild) with hyparquet (npm, pinned by
// package-lock.json) and loaded by js/results-archive.js only when the reader asks. It reads the Parquet archive
// (archive/index.json lists every file and its size): a device or test filter picks the files by their hive
// partitions (device=…/test=…/year=…) and reads nothing of the others; of each file picked it reads the footer,
// then only the columns shown, and a frame-size filter skips every row group whose statistics exclude that size;
// sets compared pick the files that hold them (index.json's sets).
// Every read is an HTTP Range request. Exposed as window.wirespeedArchive.
import { asyncBufferFromUrl, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';

const COLUMNS = ['slug', 'frame_size', 'imix', 'load_pct', 'direction', 'variant', 'trial', 'throughput_fps', 'throughput_line_rate_pct', 'loss_pct', 'latency_avg_s'];
const FOOTER_GUESS = 4096;  // the first read of a file's end: a small footer whole, else the footer's length and a second read of the rest

function partitions(path) {
  const out = {};
  for (const part of path.split('/')) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq)] = part.slice(eq + 1) === '__HIVE_DEFAULT_PARTITION__' ? null : decodeURIComponent(part.slice(eq + 1));
  }
  return out;
}

async function index(base) {
  const r = await fetch(base + 'index.json');
  if (!r.ok) throw new Error('archive/index.json: HTTP ' + r.status);
  const idx = await r.json();
  const holds = idx.sets || {};
  return idx.files.map((f, i) => ({ path: f, bytes: idx.bytes ? idx.bytes[i] : undefined, sets: holds[f], ...partitions(f), table: f.split('/')[0] }))
    .filter((f) => f.table === 'measurements');
}

// The rows of the measurements that match {device, test, frameSize, slugs} (each optional; slugs: the result sets
// compared, whose files index.json names).
async function query(base, files, want) {
  const slugs = want.slugs && want.slugs.length ? want.slugs : null;
  const picked = files.filter((f) => (!want.device || f.device === want.device) && (!want.test || f.test === want.test) &&
    (!slugs || !f.sets || f.sets.some((s) => slugs.includes(s))));
  const rows = [];
  for (const f of picked) {
    const url = new URL(base + f.path, window.location.href).href;
    const file = await asyncBufferFromUrl({ url, byteLength: f.bytes });
    const metadata = await parquetMetadataAsync(file, { initialFetchSize: FOOTER_GUESS });
    const names = new Set(metadata.schema.map((s) => s.name));
    const columns = COLUMNS.filter((c) => names.has(c));
    const opts = { file, metadata, columns, rowFormat: 'object' };
    const conditions = [];
    if (want.frameSize) conditions.push({ frame_size: { $eq: Number(want.frameSize) } });
    if (slugs && !(f.sets && f.sets.every((s) => slugs.includes(s)))) conditions.push({ slug: { $in: slugs } });
    if (conditions.length) opts.filter = conditions.length === 1 ? conditions[0] : { $and: conditions };
    const got = await parquetReadObjects(opts);
    for (const r of got) rows.push({ ...r, device: f.device, test: f.test, year: f.year });
  }
  return { rows, files: picked.length };
}

window.wirespeedArchive = { index, query, COLUMNS };
