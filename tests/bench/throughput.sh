#!/usr/bin/env bash
# Side-by-side throughput and scrollback memory of herdr's terminal path,
# measured the way ../../../shared/BENCHMARKS.md asks: in one run, the
# contenders take turns on the same workload (A B C D A B C D ...) and the
# medians are compared.
#
#   bare   ptydrain: a 200x50 PTY read until EOF, nothing else (the floor)
#   emu    ptydrain -emu: the same, every chunk fed into emulator.New(200, 50)
#          (herdr's pane path without the socket)
#   tmux   tmux 3.x, a 200x50 pane: "cmd; tmux wait-for -S done", timed
#          around "tmux wait-for done"
#   herdr  the real server (HERDR=0 skips it): "pane run p 'cmd; echo marker'"
#          then "pane wait-output p --match marker"
#
# Usage: tests/bench/throughput.sh            (RUNS=5 HERDR=1 by default)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${RUNS:-5}
HERDR=${HERDR:-1}
WORK=$(mktemp -d /tmp/herdr-bench.XXXXXX)
HERDR_PID=""
SESSION="bench$$"

cleanup() {
	tmux -L bench kill-server 2>/dev/null || true
	tmux -L benchrss kill-server 2>/dev/null || true
	if [[ -n $HERDR_PID ]]; then kill "$HERDR_PID" 2>/dev/null || true; fi
	rm -rf "$WORK"
}
trap cleanup EXIT

if ! command -v tmux >/dev/null; then
	apt-get install -y tmux >/dev/null
fi

cd "$ROOT"
go build -o "$WORK/ptydrain" ./tests/bench/ptydrain
go build -o "$WORK/scrollrss" ./tests/bench/scrollrss
if [[ $HERDR == 1 ]] && ! go build -o "$WORK/" ./cmd/herdr ./cmd/herdr-full; then
	echo "herdr does not build right now: skipping the herdr column" >&2
	HERDR=0
fi

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

# --- workloads, generated once -------------------------------------------
echo "generating workloads in $WORK ..." >&2
# 50 MB of random printable text with newlines (100 columns a line).
{ base64 -w 100 /dev/urandom | tr '+/' ' .' | head -c 50000000 >"$WORK/random.txt"; } || true # SIGPIPE
# 20 MB of SGR-heavy coloured text: 16/256/truecolor changes every word.
awk 'BEGIN {
	srand(2); n = 0
	while (n < 20000000) {
		line = ""
		for (i = 0; i < 12; i++) {
			r = int(rand() * 4)
			if (r == 0) s = sprintf("\033[%d;%dm", 1 + int(rand() * 4), 31 + int(rand() * 7))
			else if (r == 1) s = sprintf("\033[38;5;%dm", int(rand() * 256))
			else if (r == 2) s = sprintf("\033[38;2;%d;%d;%dm", int(rand() * 256), int(rand() * 256), int(rand() * 256))
			else s = "\033[0m"
			line = line s "word_" int(rand() * 1000) " "
		}
		line = line "\033[0m"
		print line
		n += length(line) + 1
	}
}' >"$WORK/sgr.txt"
# 10 000 lines of 120 characters, plain and coloured, for the memory test.
awk 'BEGIN { for (i = 0; i < 10000; i++) { l = ""; for (c = 0; c < 120; c++) l = l sprintf("%c", 33 + (i + c) % 90); print l } }' >"$WORK/lines.txt"
awk 'BEGIN { for (i = 0; i < 10000; i++) { l = ""; for (c = 0; c < 120; c++) { if (c % 8 == 0) l = l sprintf("\033[3%dm", 1 + (i + c / 8) % 7); l = l sprintf("%c", 33 + (i + c) % 90) } print l "\033[0m" } }' >"$WORK/lines_color.txt"

# --- contenders ------------------------------------------------------------
tmux -L bench -f /dev/null new-session -d -s bench -x 200 -y 50 /bin/sh
tmux -L bench set-option -g status off >/dev/null

run_bare() { "$WORK/ptydrain" -- sh -c "$1"; }
run_emu() { "$WORK/ptydrain" -emu -- sh -c "$1"; }
run_tmux() {
	local t0 t1
	tmux -L bench send-keys -t bench 'clear' Enter
	tmux -L bench clear-history -t bench
	t0=$(now)
	tmux -L bench send-keys -t bench "$1; tmux -L bench wait-for -S done" Enter
	tmux -L bench wait-for done
	t1=$(now)
	elapsed "$t0" "$t1"
}

PANE=""
herdr_cli() { "$WORK/herdr" --session "$SESSION" "$@"; }
if [[ $HERDR == 1 ]]; then
	"$WORK/herdr" --session "$SESSION" server >"$WORK/herdr.log" 2>&1 &
	HERDR_PID=$!
	for _ in $(seq 50); do herdr_cli workspace list >/dev/null 2>&1 && break; sleep 0.1; done
	PANE=$(herdr_cli workspace create | sed -n 's/.*"root_pane":{"pane_id":"\([^"]*\)".*/\1/p')
	[[ -n $PANE ]] || { echo "herdr: no pane created" >&2; exit 1; }
	herdr_cli pane run "$PANE" 'exec /bin/sh' >/dev/null
fi
run_herdr() {
	local t0 t1 m n
	# A marker of its own per run: run_herdr runs in a subshell ($(...)),
	# so a counter kept in a variable never moved, and every run after the
	# first matched the first run's marker, already on screen, at once.
	n=$(date +%s%N)
	m="__done_${n}__"
	t0=$(now)
	# The typed line reads __do""ne_N__, so only the echo's output matches.
	herdr_cli pane run "$PANE" "$1; echo __do\"\"ne_${n}__" >/dev/null
	herdr_cli pane wait-output "$PANE" --match "$m" --timeout 120000 >/dev/null
	t1=$(now)
	elapsed "$t0" "$t1"
}

CONTENDERS="bare emu tmux"
if [[ $HERDR == 1 ]]; then CONTENDERS="$CONTENDERS herdr"; fi

bench() {
	local name=$1 cmd=$2 c
	declare -A times=()
	for _ in $(seq "$RUNS"); do
		for c in $CONTENDERS; do
			times[$c]="${times[$c]:-} $("run_$c" "$cmd")"
		done
	done
	local bare emu tm hd=""
	bare=$(echo "${times[bare]}" | median)
	emu=$(echo "${times[emu]}" | median)
	tm=$(echo "${times[tmux]}" | median)
	if [[ $HERDR == 1 ]]; then hd=$(echo "${times[herdr]}" | median); fi
	printf '%-22s bare %6.3fs  emu %6.3fs  tmux %6.3fs' "$name" "$bare" "$emu" "$tm"
	if [[ -n $hd ]]; then printf '  herdr %6.3fs' "$hd"; fi
	printf '  | emu speed vs bare %5s  tmux/emu %5s' "$(ratio "$bare" "$emu")" "$(ratio "$tm" "$emu")"
	if [[ -n $hd ]]; then printf '  tmux/herdr %5s' "$(ratio "$tm" "$hd")"; fi
	printf '\n'
}

echo "medians of $RUNS alternating runs, 200x50 panes (targets: emu >= 0.95 of bare on seq; tmux/emu >= 1.30)"
bench "seq 1 2000000" "seq 1 2000000"
bench "50 MB random text" "cat $WORK/random.txt"
bench "20 MB SGR-heavy" "cat $WORK/sgr.txt"

# --- scrollback memory -----------------------------------------------------
rss_of() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
tmux_rss() {
	local file=$1 pid before after
	tmux -L benchrss -f /dev/null start-server \; set-option -g history-limit 20000 \; \
		new-session -d -s rss -x 200 -y 50 /bin/sh
	pid=$(tmux -L benchrss display-message -p '#{pid}')
	sleep 0.2
	before=$(rss_of "$pid")
	tmux -L benchrss send-keys -t rss "cat $file; tmux -L benchrss wait-for -S rssdone" Enter
	tmux -L benchrss wait-for rssdone
	sleep 0.2
	after=$(rss_of "$pid")
	tmux -L benchrss kill-server
	echo $((after - before))
}
herdr_rss() {
	local file=$1 before after
	herdr_cli pane run "$PANE" 'clear' >/dev/null
	before=$(rss_of "$HERDR_PID")
	herdr_cli pane run "$PANE" "cat $file; echo __rs\"\"s_$2__" >/dev/null
	herdr_cli pane wait-output "$PANE" --match "__rss_$2__" --timeout 60000 >/dev/null
	sleep 0.2
	after=$(rss_of "$HERDR_PID")
	echo $((after - before))
}
echo
echo "scrollback memory, 10 000 lines x 120 columns (target: emu <= 3.5 MB, a third of tmux)"
for kind in plain color; do
	file="$WORK/lines.txt"
	flag=""
	if [[ $kind == color ]]; then file="$WORK/lines_color.txt"; flag="-color"; fi
	emu=$("$WORK/scrollrss" $flag)
	tm=$(tmux_rss "$file")
	line=$(printf '%-6s emu: %s  tmux: server rss delta %d KiB' "$kind" "$emu" "$tm")
	if [[ $HERDR == 1 ]]; then
		line="$line  herdr: server rss delta $(herdr_rss "$file" "$kind") KiB (scrollback already partly filled by the runs above)"
	fi
	echo "$line"
done
