# shellcheck shell=bash
# changed-sets-lib.sh: sourced by validate-changed-sets.sh and preview-changed-sets.sh (not run alone).
# changed_sets SCRIPTS REPO BASE HEAD [DELETED]: checks that REPO has HEAD checked out (exit 2 otherwise),
# then fills the caller's array `sets` with the data/results/<set> folders the pull request changes, as
# SCRIPTS/changed-sets.sh lists them (exit 1 when it fails or refuses an entry: a gitlink, a symlink, a
# file directly in data/results/); with DELETED, the names of the sets it deletes go there, NUL-terminated.
changed_sets() {
  local scripts=$1 repo=$2 base=$3 head=$4 deleted=${5:-} checked_out wanted list
  checked_out=$(git -C "$repo" rev-parse HEAD)
  wanted=$(git -C "$repo" rev-parse --verify "$head^{commit}")
  if [ "$checked_out" != "$wanted" ]; then
    echo "$repo has $checked_out checked out, not $head" >&2
    exit 2
  fi
  list=$(mktemp)
  if ! "$scripts/changed-sets.sh" ${deleted:+--deleted "$deleted"} "$repo" "$base" "$head" > "$list"; then
    rm -f "$list"
    exit 1
  fi
  # shellcheck disable=SC2034  # `sets` is the caller's array
  mapfile -d '' -t sets < "$list"
  rm -f "$list"
}
