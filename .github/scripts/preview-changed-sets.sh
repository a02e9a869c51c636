#!/usr/bin/env bash
# preview-changed-sets.sh BASE_DIR REPO BASE HEAD
# Builds a preview of the result sets a pull request changes with the base branch's code: the
# changed sets' folders are copied from REPO (the pull request's data-only checkout, HEAD checked
# out) into BASE_DIR (the base branch's checkout, in place of its own copies), and `make` — the
# target a person runs — builds the site and PDF reports into BASE_DIR/public. Then the base's
# `wirespeed summary --markdown` writes each changed set's headline figures and every problem to
# the job summary ($GITHUB_STEP_SUMMARY, else stdout). Nothing from REPO is executed: folders are
# copied without following symlinks (wirespeed refuses them). Exits 1 when the build failed or left
# anything out of the site (build/left-out.txt, written by `make`).
set -euo pipefail

if [ "$#" -ne 4 ]; then
  echo "usage: preview-changed-sets.sh BASE_DIR REPO BASE HEAD" >&2
  exit 2
fi
base_dir=$(realpath -- "$1") repo=$(realpath -- "$2") base=$3 head=$4
here=$(dirname -- "$(realpath -- "$0")")
summary=${GITHUB_STEP_SUMMARY:-/dev/stdout}

# shellcheck disable=SC1091  # the library beside this script
source "$here/changed-sets-lib.sh"
sets=()
changed_sets "$here" "$repo" "$base" "$head"
if [ "${#sets[@]}" -eq 0 ]; then
  echo "No changed result set to preview." >> "$summary"
  exit 0
fi

slugs=()
for folder in "${sets[@]}"; do
  name=${folder#data/results/}
  rm -rf -- "$base_dir/data/results/$name"
  cp -a -- "$repo/$folder" "$base_dir/data/results/$name"   # -a: symlinks stay symlinks, for wirespeed to refuse
  slugs+=("$name")
done
printf 'previewing %q\n' "${slugs[@]}"

status=0
(cd -- "$base_dir" && make) || status=$?
(cd -- "$base_dir" && .venv/bin/wirespeed summary --markdown -- "${slugs[@]}") >> "$summary" || status=1
# `make` succeeds when it only left something out; on the base branch nothing is, so whatever the
# preview left out (a set, or an article or comparison that depends on one) is the pull request's doing
if [ -s "$base_dir/build/left-out.txt" ]; then
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "the preview build failed or left something out of the site: see the job summary and the log above" >&2
fi
exit "$status"
