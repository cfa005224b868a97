#!/usr/bin/env bash
# `slicefuzz export --python` on an et-* backend writes a script that needs only
# torch and the ExecuTorch trees: it reproduces each known native-delegate finding
# (exit 1, the differing output marked DIFF, or RAISES where the passes' graph raises) with no slicefuzz checkout beside it
# (copied alone into an empty directory), and agrees on the control (exit 0).
set -u
SF=$1 REPO=$2
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fail=0 n=0
ok() { n=$((n+1)); echo "ok   $1"; }
bad() { n=$((n+1)); fail=$((fail+1)); echo "FAIL $1"; }
for c in "$REPO"/corpus/known/et-native-delegate/*.case; do
  name=$(basename "$c" .case)
  mkdir -p "$TMP/$name"
  if ! "$SF" export --python "$c" --backend et-native-delegate -o "$TMP/$name/repro.py" 2>"$TMP/err"; then
    bad "$name: export failed: $(cat "$TMP/err")"; continue
  fi
  grep -q "slicefuzz_worker\|sys.path.insert" "$TMP/$name/repro.py" && bad "$name: the script reaches for slicefuzz code"
  (cd "$TMP/$name" && /usr/bin/python3 repro.py > out 2>&1); rc=$?
  [ $rc = 1 ] && grep -q "^DIFF \|^RAISES " "$TMP/$name/out" && grep -q "^ran .*replace_copy_with_alias.py" "$TMP/$name/out" \
    && ok "$name: the exported script reproduces it with the upstream files alone" \
    || { bad "$name: exit $rc"; tail -5 "$TMP/$name/out"; }
done
c="$REPO/corpus/eager/relu_of_a_viewed_base_read_after.case"
"$SF" export --python "$c" --backend et-edge-control -o "$TMP/control.py" 2>/dev/null
(cd "$TMP" && /usr/bin/python3 control.py > control.out 2>&1); rc=$?
[ $rc = 0 ] && grep -q "not reproduced" "$TMP/control.out" && ok "et-edge-control: the exported script agrees with eager" \
  || { bad "et-edge-control export: exit $rc"; tail -5 "$TMP/control.out"; }
echo "$((n-fail)) passed, $fail failed"
[ $fail = 0 ]
