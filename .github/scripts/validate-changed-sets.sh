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

# shellcheck disable=SC1091  # the library beside this script
source "$here/changed-sets-lib.sh"
sets=()
changed_sets "$here" "$repo" "$base" "$head"
if [ "${#sets[@]}" -eq 0 ]; then
  echo "no changed result set left to validate"
  exit 0
fi
printf 'validating %q\n' "${sets[@]}"
cd -- "$repo"
exec "$wirespeed" validate -- "${sets[@]}"
