#!/bin/sh
# The trend series of the examples: RUNS collections (default 20) of IPv4 forwarding in network namespaces,
# alternating an empty nftables forward chain and one of RULES rules (default 100) so that the machine's
# changing load falls on both alike, each labelled with its rule count as the device's configuration
# (label.py), published under CC-BY-4.0 by wirespeed like the other measured examples. An attempt whose generator sent a search trial more than 10 % slower than asked is discarded
# and repeated (at most 5 attempts a run); the kept set's notes count the discarded ones. As root, from the
# repository root:
#
#     sh examples/collect/trend/collect.sh [RULES] [RUNS] [ROOT]
#
# writes ROOT/linux-netns-nft-series-2026-11-01 … -RUNS (ROOT: data/results) as drafts, about 30 s a run. Look at
# the series (wirespeed show SLUG, the CSVs) before publishing it:
#     sed -i 's/^status = "draft"/status = "published"/' ROOT/linux-netns-nft-series-2026-11-*/result.toml
set -eu
rules=${1:-100}
runs=${2:-20}
root=${3:-data/results}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in 0 "$rules"; do sed "s/@RULES@/$n/g" "$here/base.toml.in" > "$tmp/nft-$n.toml"; done
i=1
while [ "$i" -le "$runs" ]; do
  if [ $((i % 2)) -eq 1 ]; then n=0; else n=$rules; fi
  slug=$(printf 'linux-netns-nft-series-2026-11-%02d' "$i")
  discarded=0
  while :; do
    .venv/bin/wirespeed collect netns --config "$tmp/nft-$n.toml" --into "$slug" --root "$root" \
      --licence CC-BY-4.0 --publisher wirespeed
    if .venv/bin/python "$here/label.py" check "$root/$slug"; then break; fi
    rm -rf "${root:?}/$slug"
    discarded=$((discarded + 1))
    [ "$discarded" -lt 5 ] || { echo "run $i: 5 attempts discarded, giving up" >&2; exit 1; }
  done
  .venv/bin/python "$here/label.py" label "$root/$slug" "$n" "$i" "$runs" "$rules" "$discarded"
  i=$((i + 1))
done
