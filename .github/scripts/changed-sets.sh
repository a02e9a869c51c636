#!/usr/bin/env bash
# changed-sets.sh REPO BASE HEAD
# Prints, NUL-terminated, every data/results/<set> folder in which a file changed between the merge
# base of BASE and HEAD, and HEAD (what a pull request changes), and that still exists in HEAD
# (a symlink in place of a folder is listed too: wirespeed refuses it).
# Folder names are kept byte for byte (spaces, non-ASCII letters, newlines): they are validated,
# never skipped. Deleted sets are named on stderr and left out; a file directly in data/results/ is
# not a set. Fails (non-zero) when git does, so an unreadable diff is never "nothing changed".
set -euo pipefail
export LC_ALL=C GIT_LITERAL_PATHSPECS=1  # folder names are names, not patterns

if [ "$#" -ne 3 ]; then
  echo "usage: changed-sets.sh REPO BASE HEAD" >&2
  exit 2
fi
repo=$1 base=$2 head=$3

folders=$(mktemp)
trap 'rm -f "$folders"' EXIT
git -C "$repo" diff -z --name-only --no-renames "$base...$head" -- data/results/ |
  while IFS= read -r -d '' path; do
    rest=${path#data/results/}
    printf '%s\0' "data/results/${rest%%/*}"
  done | sort -z -u > "$folders"

while IFS= read -r -d '' folder; do
  mode=$(git -C "$repo" ls-tree -z "$head" -- "$folder" | cut -z -d ' ' -f 1 | tr -d '\0')
  case "$mode" in
    040000 | 120000) printf '%s\0' "$folder" ;;  # a folder, or a symlink for wirespeed to refuse
    '') printf 'deleted, not validated: %q\n' "$folder" >&2 ;;
    *) printf 'a file, not a result set folder, not validated: %q\n' "$folder" >&2 ;;
  esac
done < "$folders"
