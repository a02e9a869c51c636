// The Vega runtime the site's charts need, bundled by Hugo (js.Build, esbuild) from the Vega packages in
// node_modules (pinned by package-lock.json): the dataflow, parser, view and scenegraph, the data,
// encoding and view transforms, and Vega's expression interpreter (expressions run without eval under
// the site's CSP). Left out: the transforms no compiled Vega-Lite chart of wirespeed uses (force,
// hierarchy, label, regression, voronoi, wordcloud, crossfilter, geo) — a chart needing one fails to
// parse and stays static (js/charts.js logs why). Exposed as window.wirespeedVega.
import { extend, Error as ErrorLevel } from 'vega-util';
import { transforms } from 'vega-dataflow';
import * as tx from 'vega-transforms';
import * as vtx from 'vega-view-transforms';
import * as encode from 'vega-encode';
import { parse } from 'vega-parser';
import { View } from 'vega-view';
import { loader } from 'vega-loader';
import { expressionInterpreter } from 'vega-interpreter';

extend(transforms, tx, vtx, encode);

window.wirespeedVega = { View, parse, loader, Error: ErrorLevel, expressionInterpreter };
