#!/usr/bin/env bash
# validate-changed-sets.sh WIRESPEED REPO BASE HEAD
# Runs WIRESPEED (the trusted base branch's `wirespeed`) on the result sets a pull request changes:
# REPO is the pull request's checkout (its data only), BASE and HEAD the commits to compare; HEAD
# must be what REPO has checked out. Nothing from REPO is executed. Exits with wirespeed's status,
# or 0 with a message when no result set is left to validate (only deletions, or no set changed).
set -euo pipefail

if [ "$#" -ne 4 ]; then
  echo "usage: validate-changed-sets.sh WIRESPEED REPO BASE HEAD" >&2
  exit 2
fi
wirespeed=$(realpath -- "$1") repo=$2 base=$3 head=$4
here=$(dirname -- "$(realpath -- "$0")")

checked_out=$(git -C "$repo" rev-parse HEAD)
wanted=$(git -C "$repo" rev-parse --verify "$head^{commit}")
if [ "$checked_out" != "$wanted" ]; then
  echo "$repo has $checked_out checked out, not $head" >&2
  exit 2
fi

list=$(mktemp)
trap 'rm -f "$list"' EXIT
"$here/changed-sets.sh" "$repo" "$base" "$head" > "$list"
mapfile -d '' -t sets < "$list"
if [ "${#sets[@]}" -eq 0 ]; then
  echo "no changed result set left to validate"
  exit 0
fi
printf 'validating %q\n' "${sets[@]}"
cd -- "$repo"
exec "$wirespeed" validate -- "${sets[@]}"
