#!/usr/bin/env bash
# Two herdr builds (old and new) and tmux on `seq 1 2000000` (or the
# command in CMD) in a pane, in one run, taking turns (the order flips every round), as
# ../../../shared/BENCHMARKS.md asks on a noisy machine: a regression check
# of the whole output path between two commits. Prints every run and the
# medians with their ratios.
#
#   git worktree add /tmp/old <commit> && (cd /tmp/old && go build -o /tmp/old/bin/ ./cmd/herdr ./cmd/herdr-full)
#   go build -o /tmp/new/ ./cmd/herdr ./cmd/herdr-full
#   tests/bench/seq_ab.sh /tmp/old/bin/herdr /tmp/new/herdr 9
set -euo pipefail
OLD=$1 NEW=$2 RUNS=${3:-7} CMD=${CMD:-seq 1 2000000}
W=$(mktemp -d /tmp/seqab.XXXX)
now() { date +%s.%N; }
el() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
med() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
declare -A PANE
start() { # name bin
	local name=$1 bin=$2
	"$bin" --session "ab$name$$" server >"$W/$name.log" 2>&1 &
	echo $! >"$W/$name.pid"
	for _ in $(seq 50); do "$bin" --session "ab$name$$" workspace list >/dev/null 2>&1 && break; sleep 0.1; done
	PANE[$name]=$("$bin" --session "ab$name$$" workspace create | sed -n 's/.*"root_pane":{"pane_id":"\([^"]*\)".*/\1/p')
	"$bin" --session "ab$name$$" pane run "${PANE[$name]}" 'exec /bin/sh' >/dev/null
}
run() { # name bin
	local name=$1 bin=$2 n m t0 t1
	n=$(date +%s%N); m="__done_${n}__"
	t0=$(now)
	"$bin" --session "ab$name$$" pane run "${PANE[$name]}" "$CMD; echo __do\"\"ne_${n}__" >/dev/null
	"$bin" --session "ab$name$$" pane wait-output "${PANE[$name]}" --match "$m" --timeout 120000 >/dev/null
	t1=$(now); el "$t0" "$t1"
}
runtmux() {
	local t0 t1
	tmux -L seqab send-keys -t ab 'clear' Enter; tmux -L seqab clear-history -t ab
	t0=$(now); tmux -L seqab send-keys -t ab "$CMD; tmux -L seqab wait-for -S done" Enter; tmux -L seqab wait-for done; t1=$(now); el "$t0" "$t1"
}
trap 'kill $(cat $W/*.pid) 2>/dev/null; tmux -L seqab kill-server 2>/dev/null; rm -rf $W' EXIT
start old "$OLD"; start new "$NEW"
tmux -L seqab -f /dev/null new-session -d -s ab -x 200 -y 50 /bin/sh
o="" n="" t=""
for r in $(seq "$RUNS"); do
	if ((r % 2)); then o+=" $(run old "$OLD")"; n+=" $(run new "$NEW")"; t+=" $(runtmux)"
	else t+=" $(runtmux)"; n+=" $(run new "$NEW")"; o+=" $(run old "$OLD")"; fi
done
mo=$(echo "$o" | med); mn=$(echo "$n" | med); mt=$(echo "$t" | med)
echo "old:$o"; echo "new:$n"; echo "tmux:$t"
awk -v c="$CMD" -v o="$mo" -v n="$mn" -v t="$mt" 'BEGIN { printf "%s medians: old %.3fs new %.3fs tmux %.3fs | new/old %.2f tmux/old %.2f tmux/new %.2f\n", c, o, n, t, n/o, t/o, t/n }'
