#!/usr/bin/env bash
# Paired comparison of one Go benchmark in two test binaries (built with
# `go test -c`), taking turns and flipping the order every round, as
# /work/shared/BENCHMARKS.md asks on a noisy machine. Prints every round and
# the medians of ns/op and of the per-round ratio new/old.
#
#   go test -c -o /tmp/old.test ./emulator/   # at the old commit
#   go test -c -o /tmp/new.test ./emulator/
#   tests/bench/benchpair.sh /tmp/old.test /tmp/new.test emulator Write_SGRHeavy 30x 6
#
# Arguments: OLD NEW DIR (the package folder to run in) BENCH BENCHTIME ROUNDS.
set -euo pipefail
old=$1 new=$2 dir=$3 bench=$4 bt=$5 rounds=$6
cd "$(dirname "$0")/../../$dir"
med() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
one() { "$1" -test.run '^$' -test.bench "^Benchmark${bench}\$" -test.benchtime "$bt" -test.benchmem | awk '/^Benchmark/ { print $3, $(NF-3), $(NF-1) }'; }
out=$(for r in $(seq "$rounds"); do
	if ((r % 2)); then a=$(one "$old"); b=$(one "$new"); else b=$(one "$new"); a=$(one "$old"); fi
	echo "$a $b"
done)
echo "$out" | awk '{ printf "old %s ns/op %s B/op %s allocs | new %s ns/op %s B/op %s allocs | new/old %.3f\n", $1, $2, $3, $4, $5, $6, $4 / $1 }'
echo "$bench: median old $(echo "$out" | awk '{ print $1 }' | med) ns/op, new $(echo "$out" | awk '{ print $4 }' | med) ns/op, median ratio new/old $(echo "$out" | awk '{ print $4 / $1 }' | med) (n=$rounds)"
