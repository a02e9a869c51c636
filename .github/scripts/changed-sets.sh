#!/usr/bin/env bash
# changed-sets.sh [--deleted FILE] REPO BASE HEAD
# Prints, NUL-terminated, every data/results/<set> folder in which a file changed between the merge
# base of BASE and HEAD, and HEAD (what a pull request changes), and that still exists in HEAD.
# Under data/results/ only plain folders of regular files are accepted: every changed entry that is a
# gitlink (mode 160000, a submodule: nothing would be validated, and the build would fail after the
# merge), a symlink (120000), or a file directly in data/results/ (not in a set's folder) is refused
# in one line on stderr, and the script exits 1 after listing them all.
# Deleted sets (the folder gone in HEAD) are named on stderr and, with --deleted FILE, written to FILE
# NUL-terminated (validate-changed-sets.sh refuses the deletion of a set an article cites).
# Folder names are kept byte for byte (spaces, non-ASCII letters, newlines): they are validated,
# never skipped. Fails (non-zero) when git does, so an unreadable diff is never "nothing changed".
set -euo pipefail
export LC_ALL=C GIT_LITERAL_PATHSPECS=1  # folder names are names, not patterns

deleted_out=
if [ "${1:-}" = --deleted ] && [ "$#" -ge 2 ]; then
  deleted_out=$2
  shift 2
fi
if [ "$#" -ne 3 ]; then
  echo "usage: changed-sets.sh [--deleted FILE] REPO BASE HEAD" >&2
  exit 2
fi
repo=$1 base=$2 head=$3

raw=$(mktemp) folders=$(mktemp)
trap 'rm -f "$raw" "$folders"' EXIT
# -z --raw: ":OLDMODE NEWMODE OLDSHA NEWSHA STATUS" NUL path NUL, for every changed entry (gitlinks included)
git -C "$repo" diff --raw -z --no-renames --no-abbrev "$base...$head" -- data/results/ > "$raw"

refused=0
refuse() {  # PATH WHY
  printf 'refused: %q: %s\n' "$1" "$2" >&2
  refused=1
}
while IFS= read -r -d '' meta && IFS= read -r -d '' path; do
  read -r _old new _rest <<< "$meta"
  rest=${path#data/results/}
  case "$new" in
    160000) refuse "$path" "a gitlink (submodule): data/results/ holds plain folders of files only"; continue ;;
    120000) refuse "$path" "a symlink: data/results/ holds plain folders of files only"; continue ;;
    000000 | 100644 | 100755) ;;
    *) refuse "$path" "git mode $new is not a regular file"; continue ;;
  esac
  if [ "$rest" = "${rest#*/}" ]; then
    [ "$new" = 000000 ] || refuse "$path" "a file directly in data/results/, not in a result set's folder"
    continue
  fi
  printf '%s\0' "data/results/${rest%%/*}" >> "$folders"
done < "$raw"

sort -z -u -o "$folders" "$folders"
[ -z "$deleted_out" ] || : > "$deleted_out"
while IFS= read -r -d '' folder; do
  mode=$(git -C "$repo" ls-tree -z "$head" -- "$folder" | cut -z -d ' ' -f 1 | tr -d '\0')
  case "$mode" in
    040000) printf '%s\0' "$folder" ;;
    '')
      printf 'deleted, not validated: %q\n' "$folder" >&2
      [ -z "$deleted_out" ] || printf '%s\0' "${folder#data/results/}" >> "$deleted_out"
      ;;
    *) refuse "$folder" "not a folder in $head (git mode $mode)" ;;
  esac
done < "$folders"
exit "$refused"
