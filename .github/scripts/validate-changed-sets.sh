#!/usr/bin/env bash
# validate-changed-sets.sh WIRESPEED REPO BASE HEAD
# Runs WIRESPEED (the trusted base branch's `wirespeed`) on the result sets a pull request changes:
# REPO is the pull request's checkout (its data only), BASE and HEAD the commits to compare; HEAD
# must be what REPO has checked out. Nothing from REPO is executed. Refuses (exit 1) what
# changed-sets.sh refuses under data/results/ (gitlinks, symlinks, files outside a set's folder) and
# the deletion of a set that an article cites (`wirespeed cited`, on the articles of the merge of
# BASE and HEAD: their report, their resultsets front matter, their shortcodes), so a green pull
# request cannot take a review off the site. Exits with wirespeed validate's status otherwise, or 0
# with a message when no result set is left to validate.
set -euo pipefail

if [ "$#" -ne 4 ]; then
  echo "usage: validate-changed-sets.sh WIRESPEED REPO BASE HEAD" >&2
  exit 2
fi
wirespeed=$(realpath -- "$1") repo=$2 base=$3 head=$4
here=$(dirname -- "$(realpath -- "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck disable=SC1091  # the library beside this script
source "$here/changed-sets-lib.sh"
sets=()
changed_sets "$here" "$repo" "$base" "$head" "$work/deleted"

gone=()
mapfile -d '' -t gone < "$work/deleted"
if [ "${#gone[@]}" -gt 0 ]; then
  # the articles the site will have after the merge (a conflict still yields a tree; exit 1 means conflicts)
  merged=$(git -C "$repo" merge-tree --write-tree --no-messages "$base" "$head") || [ "$?" -eq 1 ] || {
    echo "cannot merge $head into $base to find the articles that cite the deleted sets" >&2
    exit 2
  }
  tree=${merged%%$'\n'*}
  mkdir -p "$work/merged/content/reviews"
  if [ -n "$(git -C "$repo" ls-tree -d "$tree" -- content/reviews)" ]; then
    git -C "$repo" archive --format=tar "$tree" content/reviews | tar -x -C "$work/merged"
  fi
  if ! "$wirespeed" cited --articles "$work/merged/content/reviews" -- "${gone[@]}"; then
    echo "refused: the pull request deletes a result set that an article cites (above); remove or change the article in the same pull request" >&2
    exit 1
  fi
fi

if [ "${#sets[@]}" -eq 0 ]; then
  echo "no changed result set left to validate"
  exit 0
fi
printf 'validating %q\n' "${sets[@]}"
cd -- "$repo"
exec "$wirespeed" validate -- "${sets[@]}"
