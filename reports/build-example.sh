#!/bin/sh
# Build one wirespeed PDF report:  reports/build-example.sh EXAMPLE.md OUT.pdf
# Runs from any directory; needs pandoc (PANDOC=... to override) and xelatex.
# Shell escape stays off: pandoc passes -no-shell-escape to xelatex.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 EXAMPLE.md OUT.pdf" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
in=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(mkdir -p "$(dirname "$2")" && cd "$(dirname "$2")" && pwd)/$(basename "$2")
PANDOC=${PANDOC:-pandoc}
# Defence in depth: TeX may read and write only its own work files.
export openin_any=p openout_any=p
cd "$here"
exec "$PANDOC" \
  --from markdown-raw_tex-raw_attribute-tex_math_dollars-tex_math_single_backslash \
  --template template/wirespeed.latex \
  --metadata-file defaults.yaml \
  --lua-filter filters/meta.lua \
  --lua-filter filters/boxes.lua \
  --lua-filter filters/landscape.lua \
  --lua-filter filters/appendix.lua \
  --lua-filter filters/tables.lua \
  --resource-path "$(dirname "$in"):." \
  --pdf-engine=xelatex \
  --pdf-engine-opt=-no-shell-escape \
  ${WIRESPEED_PANDOC_OPTS:-} -o "$out" "$in"
