#!/usr/bin/env bash
# Side-by-side throughput and scrollback memory of herdr's terminal path,
# measured the way ../../../shared/BENCHMARKS.md asks: in one run, the
# contenders take turns on the same workload, round after round (the order
# rotates every round), and each contender's time is divided by the floor's
# in the same round; the report gives the medians of the times and of those
# per-round ratios, the load at the start and end of each row, and the
# median CPU (user+system) of the reading process: ptydrain's own (not its
# command's), each herdr server's. The load moves the CPU less than the time.
#
#   bare   ptydrain: a 200x50 PTY read until EOF, nothing else (the floor)
#   emu    ptydrain -emu: the same, every chunk fed into emulator.New(200, 50)
#          (herdr's pane path without the socket)
#   tmux   tmux 3.x, a 200x50 pane: "cmd; tmux wait-for -S done", timed
#          around "tmux wait-for done"
#   herdr  the real server (HERDR=0 skips it), its pane 200x50 (headless_cols
#          and headless_rows of a config of its own): "pane run p 'cmd; echo
#          marker'" then "pane wait-output p --match marker"
#   old    OLD_HERDR=/path/to/herdr: another herdr build, run exactly as herdr
#          is, so old and new code are compared within one run
#
# Usage: tests/bench/throughput.sh
#   RUNS=5        rounds per row
#   ROWS="seq text sgr"   which rows to run
#   OLD_HERDR=    an older herdr binary (herdr-full beside it) to take turns with this tree's
#   NEW_HERDR=    a herdr binary to use instead of building this tree's
#   USE_TMUX=1 MEM=1   0 skips tmux, or the scrollback memory section
# An old binary of commit C:
#   mkdir /tmp/old && git archive C | tar -x -C /tmp/old && (cd /tmp/old && go build -o /tmp/old/ ./cmd/herdr ./cmd/herdr-full)

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${RUNS:-5}
HERDR=${HERDR:-1}
OLD_HERDR=${OLD_HERDR:-}
ROWS=${ROWS:-seq text sgr}
USE_TMUX=${USE_TMUX:-1}
MEM=${MEM:-1}
WORK=$(mktemp -d /tmp/herdr-bench.XXXXXX)
SESSION="bench$$"
declare -A SERVER_PID=() PANE=() BIN=()

cleanup() {
	tmux -L bench kill-server 2>/dev/null || true
	tmux -L benchrss kill-server 2>/dev/null || true
	local p
	for p in "${SERVER_PID[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$WORK"
}
trap cleanup EXIT

if [[ $USE_TMUX == 1 ]] && ! command -v tmux >/dev/null; then
	echo "tmux is not installed: skipping the tmux column" >&2
	USE_TMUX=0
fi

cd "$ROOT"
go build -o "$WORK/ptydrain" ./tests/bench/ptydrain
go build -o "$WORK/scrollrss" ./tests/bench/scrollrss
NEW_BIN="$WORK/herdr"
if [[ -n ${NEW_HERDR:-} ]]; then
	NEW_BIN=$NEW_HERDR
elif [[ $HERDR == 1 ]] && ! go build -o "$WORK/" ./cmd/herdr ./cmd/herdr-full; then
	echo "herdr does not build right now: skipping the herdr column" >&2
	HERDR=0
fi
if [[ -n $OLD_HERDR && ! -x $OLD_HERDR ]]; then
	echo "OLD_HERDR=$OLD_HERDR is not an executable" >&2
	exit 2
fi

now() { date +%s.%N; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*load averages*: //'; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "0" }'; }

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
CONTENDERS="bare emu"
if [[ $USE_TMUX == 1 ]]; then
	tmux -L bench -f /dev/null new-session -d -s bench -x 200 -y 50 /bin/sh
	tmux -L bench set-option -g status off >/dev/null
	CONTENDERS="$CONTENDERS tmux"
fi

run_bare() { "$WORK/ptydrain" -cpu "$WORK/cpu.bare" -- sh -c "$1"; }
run_emu() { "$WORK/ptydrain" -emu -cpu "$WORK/cpu.emu" -- sh -c "$1"; }
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

# Every herdr server reads a config of its own whose headless size is the
# other contenders' 200x50 (a server with no client sizes new panes by it).
printf '[server]\nheadless_cols = 200\nheadless_rows = 50\n' >"$WORK/config.toml"
herdr_cli() { local name=$1; shift; "${BIN[$name]}" --session "$SESSION$name" "$@"; }
start_herdr() { # name binary
	local name=$1 size
	BIN[$name]=$2
	HERDR_CONFIG_PATH="$WORK/config.toml" "${BIN[$name]}" --session "$SESSION$name" server >"$WORK/$name.log" 2>&1 &
	SERVER_PID[$name]=$!
	for _ in $(seq 50); do herdr_cli "$name" workspace list >/dev/null 2>&1 && break; sleep 0.1; done
	PANE[$name]=$(herdr_cli "$name" workspace create | sed -n 's/.*"root_pane":{"pane_id":"\([^"]*\)".*/\1/p')
	[[ -n ${PANE[$name]} ]] || { echo "$name: no pane created (see $WORK/$name.log)" >&2; exit 1; }
	herdr_cli "$name" pane run "${PANE[$name]}" 'exec /bin/sh' >/dev/null
	herdr_cli "$name" pane run "${PANE[$name]}" 'echo "__si""ze $(stty size)"' >/dev/null
	size=$(herdr_cli "$name" pane wait-output "${PANE[$name]}" --regex '__size [0-9]' --timeout 10000 |
		grep -o '__size [0-9]* [0-9]*' | head -1 | cut -d' ' -f2-)
	if [[ $size != "50 200" ]]; then
		echo "$name: the pane is $size (rows cols), not 50 200" >&2
		exit 1
	fi
	CONTENDERS="$CONTENDERS $name"
}
# cpu_of prints a process's user and system CPU time in clock ticks.
cpu_of() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
TICKS=$(getconf CLK_TCK)
run_herdr_as() { # name cmd
	local name=$1 t0 t1 m n c0
	# A marker of its own per run: each run happens in a subshell ($(...)),
	# so a counter kept in a variable would never move.
	n=$(date +%s%N)
	m="__done_${n}__"
	c0=$(cpu_of "${SERVER_PID[$name]}")
	t0=$(now)
	# The typed line reads __do""ne_N__, so only the echo's output matches.
	herdr_cli "$name" pane run "${PANE[$name]}" "$2; echo __do\"\"ne_${n}__" >/dev/null
	herdr_cli "$name" pane wait-output "${PANE[$name]}" --match "$m" --timeout 120000 >/dev/null
	t1=$(now)
	# The server's CPU (user and system) for the run: the load moves it less than the time.
	awk -v a="$c0" -v b="$(cpu_of "${SERVER_PID[$name]}")" -v t="$TICKS" 'BEGIN { printf "%.3f\n", (b - a) / t }' >>"$WORK/cpu.$name"
	elapsed "$t0" "$t1"
}
run_herdr() { run_herdr_as herdr "$1"; }
run_old() { run_herdr_as old "$1"; }
if [[ $HERDR == 1 ]]; then start_herdr herdr "$NEW_BIN"; fi
if [[ -n $OLD_HERDR ]]; then start_herdr old "$OLD_HERDR"; fi

bench() {
	local name=$1 cmd=$2 c r t list load0
	local -a order
	declare -A times=() ratios=()
	read -ra order <<<"$CONTENDERS"
	rm -f "$WORK"/cpu.*
	load0=$(load)
	for r in $(seq "$RUNS"); do
		# Rotate the order every round, so no contender always follows the same one.
		declare -A round=()
		local k n=${#order[@]}
		for ((k = 0; k < n; k++)); do
			c=${order[$(((k + r) % n))]}
			t=$("run_$c" "$cmd")
			round[$c]=$t
			times[$c]="${times[$c]:-} $t"
		done
		for c in "${order[@]}"; do ratios[$c]="${ratios[$c]:-} $(ratio "${round[$c]}" "${round[bare]}")"; done
		unset round
	done
	printf '%-18s load %s -> %s\n' "$name" "$load0" "$(load)"
	for c in "${order[@]}"; do
		printf '  %-6s median %7.3fs  / bare (per-round median) %6.3f' "$c" "$(echo "${times[$c]}" | median)" "$(echo "${ratios[$c]}" | median)"
		if [[ -f $WORK/cpu.$c ]]; then
			printf '  CPU median %5.2fs' "$(tr '\n' ' ' <"$WORK/cpu.$c" | median)"
		fi
		printf '   runs:%s\n' "${times[$c]}"
	done
	if [[ -n ${times[old]:-} && -n ${times[herdr]:-} ]]; then
		list=""
		for r in $(seq "$RUNS"); do
			list="$list $(ratio "$(echo "${times[herdr]}" | awk -v i="$r" '{ print $i }')" "$(echo "${times[old]}" | awk -v i="$r" '{ print $i }')")"
		done
		printf '  herdr / old (per-round median) %.3f\n' "$(echo "$list" | median)"
	fi
}

echo "$RUNS rounds per row, contenders in turn ($CONTENDERS), 200x50 panes; goals: herdr / bare <= 1.0 (seq), 1.10 (text), 1.19 (SGR)"
for row in $ROWS; do
	case $row in
	seq) bench "seq 1 2000000" "seq 1 2000000" ;;
	text) bench "50 MB random text" "cat $WORK/random.txt" ;;
	sgr) bench "20 MB SGR-heavy" "cat $WORK/sgr.txt" ;;
	*) echo "unknown row $row (seq, text, sgr)" >&2 ;;
	esac
done

[[ $MEM == 1 ]] || exit 0

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
	herdr_cli herdr pane run "${PANE[herdr]}" 'clear' >/dev/null
	before=$(rss_of "${SERVER_PID[herdr]}")
	herdr_cli herdr pane run "${PANE[herdr]}" "cat $file; echo __rs\"\"s_$2__" >/dev/null
	herdr_cli herdr pane wait-output "${PANE[herdr]}" --match "__rss_$2__" --timeout 60000 >/dev/null
	sleep 0.2
	after=$(rss_of "${SERVER_PID[herdr]}")
	echo $((after - before))
}
echo
echo "scrollback memory, 10 000 lines x 120 columns (target: emu <= 3.5 MB, a third of tmux)"
for kind in plain color; do
	file="$WORK/lines.txt"
	flag=""
	if [[ $kind == color ]]; then file="$WORK/lines_color.txt"; flag="-color"; fi
	line=$(printf '%-6s emu: %s' "$kind" "$("$WORK/scrollrss" $flag)")
	if [[ $USE_TMUX == 1 ]]; then line="$line  tmux: server rss delta $(tmux_rss "$file") KiB"; fi
	if [[ $HERDR == 1 ]]; then
		line="$line  herdr: server rss delta $(herdr_rss "$file" "$kind") KiB (scrollback already partly filled by the runs above)"
	fi
	echo "$line"
done
