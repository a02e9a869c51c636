// Vega's expression interpreter (vega-interpreter, pinned by package-lock.json), bundled by Hugo
// (js.Build) so that Vega runs its expressions without eval under the site's CSP (no 'unsafe-eval').
import { expressionInterpreter } from 'vega-interpreter';

window.wirespeedVegaInterpreter = expressionInterpreter;
