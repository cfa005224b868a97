#!/usr/bin/env bash
# The et-* backends against trees that lack their files: each missing backend is
# not listed, one `not available:` line names the file, and --backend on it is a
# usage error (exit 2) that names it; a worker whose pass cannot import is a
# CRASH naming the import, never a pass that did nothing.
set -u
SF=$1 SRC=$2
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fail=0 n=0
ok() { n=$((n+1)); echo "ok   $1"; }
bad() { n=$((n+1)); fail=$((fail+1)); echo "FAIL $1"; }
mkdir -p "$TMP/empty-overlay"
out=$(SLICEFUZZ_EXECUTORCH_OVERLAY="$TMP/empty-overlay" "$SF" backends)
echo "$out" | grep -q '^et-native-delegate ' && bad "et-native-delegate listed without the overlay" || ok "et-native-delegate not listed without the overlay"
echo "$out" | grep -q "^not available: et-native-delegate: backends/native/passes/__init__.py is in neither $SRC nor $TMP/empty-overlay$" \
  && ok "one line names the missing file" || bad "one line names the missing file"
echo "$out" | grep -q '^et-aoti-view ' && ok "et-aoti-view (in the tree) still listed" || bad "et-aoti-view (in the tree) still listed"
printf 'slicefuzz-case 1\ndtype float32\ninput x [2]\ny = clone(x)\noutput y\n' > "$TMP/c.case"
SLICEFUZZ_EXECUTORCH_OVERLAY="$TMP/empty-overlay" "$SF" check --backend et-native-delegate "$TMP/c.case" > "$TMP/o" 2> "$TMP/e"
rc=$?
[ $rc = 2 ] && grep -q "backend not available: et-native-delegate: backends/native/passes/__init__.py" "$TMP/e" \
  && ok "--backend et-native-delegate without its files: exit 2 naming the file" || bad "exit $rc: $(cat "$TMP/e")"
out=$(SLICEFUZZ_EXECUTORCH_SRC="$TMP/empty-overlay" SLICEFUZZ_EXECUTORCH_OVERLAY= "$SF" backends)
echo "$out" | grep -q '^not available: et-aoti-view: backends/aoti/passes/replace_view_copy_with_view.py is in neither' \
  && ok "a tree without AOTI's pass: et-aoti-view not available" || bad "a tree without AOTI's pass"
"$SF" check --backend et-view-copy-to-view "$TMP/c.case" > "$TMP/o" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "CRASH.*cannot load its upstream passes: ModuleNotFoundError: No module named 'torch.utils._sympy'" "$TMP/o" \
  && ok "et-view-copy-to-view: CRASH naming the import that stops it" || bad "et-view-copy-to-view: exit $rc: $(head -c 600 "$TMP/o")"
echo "$((n-fail)) passed, $fail failed"
[ $fail = 0 ]
