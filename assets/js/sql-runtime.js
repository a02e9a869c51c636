// DuckDB-Wasm's browser API for the SQL page (layouts/sql.html), bundled by Hugo (js.Build, esbuild) from
// @duckdb/duckdb-wasm in node_modules (pinned by package-lock.json) with Apache Arrow. Its worker and WebAssembly
// module are served from this site; js/sql.js loads this file only when the reader asks for the SQL engine.
// Exposed as window.wirespeedDuckDB.
import { AsyncDuckDB, VoidLogger, DuckDBDataProtocol } from '@duckdb/duckdb-wasm';

window.wirespeedDuckDB = { AsyncDuckDB, VoidLogger, DuckDBDataProtocol };
