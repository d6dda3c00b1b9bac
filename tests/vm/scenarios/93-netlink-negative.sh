#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Malformed and unprivileged generic netlink requests at volume, generated
# from the family's spec (Documentation/netlink/specs/election.yaml) by
# tests/vm/nlneg.py: every command (do and dump) with each attribute it
# takes missing, of the wrong length, flagged as a nest, out of range and
# oversized; every attribute it does not take; unknown attribute types;
# whole-message malformations; every command as uid 65534, as uid 0
# without capabilities and through a socket uid 65534 opened. Each refusal
# must carry an errno of its class, an extack message and the offending
# attribute's offset (or the missing one's type), and change nothing: the
# GROUP_GET and STATS_GET dumps and MODULE_GET's live counters compared
# byte for byte around every case, no event multicast. Then two matrices
# of valid options (refused whole or accepted whole) and the positive
# controls. Targets: one stopped group per algorithm on node 1's eth0.
# Arguments go to nlneg.py (e.g. --rounds 5 for a longer leak check,
# --only REGEX, -v).
. tests/vm/lib.sh
elec_begin

elec_load || elec_end
elec_topo 1 || elec_end

out=$(mktemp)
log "--- tests/vm/nlneg.py in node 1's namespace $*"
ip netns exec en1 python3 "$ELEC_REPO/tests/vm/nlneg.py" --dev eth0 "$@" >"$out" 2>&1
rc=$?
while IFS= read -r line; do
	printf '%s\n' "$line"
	case $line in
	PASS:*) ELEC_PASS=$((ELEC_PASS + 1)) ;;
	FAIL:*) ELEC_FAIL=$((ELEC_FAIL + 1)) ;;
	esac
done <"$out"
[ -n "${RESULTS_DIR:-}" ] && [ -d "$RESULTS_DIR" ] && cp "$out" "$RESULTS_DIR/nlneg.log"
grep -q '^nlneg: [0-9]* cases' "$out" || fail "nlneg.py did not finish (exit $rc)"
[ $rc = 0 ] || [ "$ELEC_FAIL" -gt 0 ] || fail "nlneg.py exited $rc without a FAIL line"
rm -f "$out"

check "no instance left in node 1's namespace" sh -c "ip netns exec en1 '$ELEC_CTL' -j show | grep -qx '\\[\\]'"
elec_leak_check
check "rmmod election" rmmod election
elec_end
