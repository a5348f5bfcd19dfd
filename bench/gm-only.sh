#!/usr/bin/env bash
# Issue 42's targets, by hand (not a scale scenario yet): a campaign of N events about a
# GM-only foe and N about a party character, against the same campaign with the foe open.
# For each: the GM's join file (time and bytes), a player's join from it (time), the
# player's ledger file (bytes) and its `verify --full` (time).
#
#   cargo build --release -p leechbook && bench/gm-only.sh 1000
set -euo pipefail
N=${1:-1000}
L=${LEECHBOOK:-target/release/leechbook}
ms() { local s=$(date +%s%N); "$@" >/dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000000 )); }
printf "%-8s %10s %12s %10s %12s %12s %10s\n" mode events invite_ms join_bytes join_ms player_bytes verify_ms
for mode in open gm-only; do
    d=$(mktemp -d)
    $L --db "$d/gm.db" init --name Bench >/dev/null
    $L --db "$d/gm.db" character add Osric --str 12 --end 12 --shock 65 --hb 13 >/dev/null
    flag=""; [ "$mode" = gm-only ] && flag="--gm-only"
    $L --db "$d/gm.db" character add Shade $flag --str 12 --end 12 --shock 65 --hb 13 >/dev/null
    for i in $(seq 1 "$N"); do
        step=1; [ $((i % 2)) = 0 ] && step=-1
        $L --db "$d/gm.db" fatigue Shade -- $step >/dev/null
        $L --db "$d/gm.db" fatigue Osric -- $step >/dev/null
    done
    events=$($L --db "$d/gm.db" log --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
    invite=$(ms $L --db "$d/gm.db" sync invite "$d/j.join")
    join=$(ms $L --db "$d/ann.db" init --join "$d/j.join")
    verify=$(ms $L --db "$d/ann.db" verify --full)
    printf "%-8s %10s %12s %10s %12s %12s %10s\n" "$mode" "$events" "$invite" \
        "$(stat -c %s "$d/j.join")" "$join" "$(stat -c %s "$d/ann.db")" "$verify"
    rm -rf "$d"
done
