//go:build !windows

package readme

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	. "github.com/herdr-go/herdr/tests/harness"
)

// The README's commands run as written, on a fresh HOME, read from
// README.md itself so that an edit to it is checked too. Every shell block
// (a fence with no language, sh, bash, shell or console) is preceded by a
// directive comment saying how it runs, or why not:
//
//	<!-- readme-test: skip: REASON -->
//	<!-- readme-test: run [in a terminal] [in the checkout] [with a server] [twice] [; needs TOOL] [; expect[ line]: TEXT] -->
//
// "in a terminal" runs it on a PTY, where the interactive client it starts
// must draw a pane and detach on ctrl+b q; "in the checkout" runs it in
// the module root (else in HOME); "with a
// server" starts the default session's server first; "twice" runs it
// again in the same HOME, beside a running default-session server (what
// an earlier `go run ./cmd/herdr` leaves); "needs TOOL" skips it when TOOL is
// not installed; TEXT must appear in its output (with "expect line:", as
// a whole line). A block whose lines start
// with "$ " is a transcript: those lines run, the others are its output.
// Every toml block is a config.toml that `herdr config check` passes.
// The blocks are bash, run in a process group: not on Windows.

// readmeBlock is one fenced block of README.md.
type readmeBlock struct {
	line      int    // of the opening fence
	lang      string // after the fence
	directive string // the readme-test comment before it, "" when none
	body      string
}

func readmeBlocks(t *testing.T) []readmeBlock {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ModuleRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []readmeBlock
	var cur *readmeBlock
	var body strings.Builder
	last := "" // the last non-blank line outside a block
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &readmeBlock{line: n, lang: strings.TrimSpace(strings.TrimPrefix(line, "```"))}
			if d, ok := strings.CutPrefix(strings.TrimSpace(last), "<!-- readme-test:"); ok {
				cur.directive = strings.TrimSpace(strings.TrimSuffix(d, "-->"))
			}
			body.Reset()
		case cur != nil && strings.TrimSpace(line) == "```":
			cur.body = body.String()
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line + "\n")
		case strings.TrimSpace(line) != "":
			last = line
		}
	}
	if cur != nil {
		t.Fatalf("README.md:%d: a block is never closed", cur.line)
	}
	return blocks
}

// readmeEnv is a fresh HOME (no XDG folders set, so the README's
// ~/.config/herdr paths hold) with the built herdr and herdr-full first on
// PATH and the real Go caches.
func readmeEnv(t *testing.T) (home string, env []string) {
	t.Helper()
	RequireUnixShell(t)
	dir, err := os.MkdirTemp("", "rd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "HERDR_"), strings.HasPrefix(k, "XDG_"), k == "HOME", k == "PATH":
			continue
		case k == "SHELL":
			kv = "SHELL=/bin/sh" // panes run a shell without the tester's rc files
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+dir, "PATH="+filepath.Dir(HerdrBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	return dir, append(env, GoCaches...)
}

// runShell runs script with bash -e (each command must succeed) in dir,
// ending the whole process group when it is done or after the deadline.
func runShell(t *testing.T, env []string, dir, script string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) // a server left behind by a failed block
	}
	return string(out), err
}

// startDefaultServer runs `herdr server` for the default session in env
// until the test ends, as `go run ./cmd/herdr` leaves one running.
func startDefaultServer(t *testing.T, home string, env []string) {
	t.Helper()
	cmd := exec.Command(HerdrBin, "server")
	cmd.Dir, cmd.Env = home, env
	var out SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		stop := exec.Command(HerdrBin, "server", "stop")
		stop.Env = env
		_ = stop.Run()
		select {
		case <-done:
		case <-time.After(WaitTimeout):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	WaitFor(t, "the default session's server", func() bool {
		st := exec.Command(HerdrBin, "status")
		st.Env = env
		b, _ := st.Output()
		return strings.Contains(string(b), "status: running")
	})
}

// runInTerminal runs script on a terminal: the interactive client it
// starts must draw a pane, then detach on ctrl+b q and exit 0. The server
// it started is stopped when the test ends. A first go run compiles, so
// the pane may take minutes.
func runInTerminal(t *testing.T, env []string, dir, script string) {
	t.Helper()
	t.Cleanup(func() {
		stop := exec.Command(HerdrBin, "server", "stop")
		stop.Env = env
		_ = stop.Run()
	})
	cmd := exec.Command("bash", "-e", "-c", script)
	cmd.Dir, cmd.Env = dir, append(slices.Clone(env), "TERM=xterm-256color")
	c := StartTUI(t, cmd)
	deadline := time.Now().Add(4 * time.Minute)
	for FramedPanes(c.Screen()) == 0 {
		if c.Exited() || time.Now().After(deadline) {
			t.Fatalf("no pane on the client's screen (exited: %v):\n%s", c.Exited(), c.Screen())
		}
		time.Sleep(100 * time.Millisecond) // polling a screen that go run may take minutes to show
	}
	c.Type(TuiPrefix + "q")
	if code := c.WaitExit(t); code != 0 {
		t.Errorf("exit %d after detaching", code)
	}
}

// transcript turns a block of "$ command" lines and their output into the
// commands alone; a block without "$ " lines is a script as it stands.
func transcript(body string) string {
	var cmds []string
	for _, line := range strings.Split(body, "\n") {
		if c, ok := strings.CutPrefix(line, "$ "); ok {
			cmds = append(cmds, c)
		}
	}
	if len(cmds) == 0 {
		return body
	}
	return strings.Join(cmds, "\n") + "\n"
}

func TestReadme_EveryCommandBlockRuns(t *testing.T) {
	ran := 0
	for _, b := range readmeBlocks(t) {
		switch b.lang {
		case "", "sh", "bash", "shell", "console":
		default:
			continue
		}
		d := b.directive
		name := "line" + strconv.Itoa(b.line)
		switch {
		case d == "":
			t.Errorf("README.md:%d: a command block without a <!-- readme-test: run … --> or <!-- readme-test: skip: why --> comment before it", b.line)
			continue
		case strings.HasPrefix(d, "skip:"):
			if strings.TrimSpace(strings.TrimPrefix(d, "skip:")) == "" {
				t.Errorf("README.md:%d: a skipped block must say why", b.line)
			}
			continue
		case !strings.HasPrefix(d, "run"):
			t.Errorf("README.md:%d: unknown readme-test directive %q", b.line, d)
			continue
		}
		ran++
		t.Run(name, func(t *testing.T) {
			how, expect, _ := strings.Cut(d, "; expect")
			wholeLine := strings.HasPrefix(expect, " line:")
			expect = strings.TrimSpace(expect[strings.Index(expect, ":")+1:])
			if words := strings.Fields(strings.ReplaceAll(how, ";", " ")); slices.Contains(words, "needs") {
				tool := ""
				if i := slices.Index(words, "needs"); i+1 < len(words) {
					tool = words[i+1]
				}
				if _, err := exec.LookPath(tool); tool == "" || err != nil {
					t.Skipf("README.md:%d needs %s, which is not installed", b.line, tool)
				}
			}
			home, env := readmeEnv(t)
			dir := home
			if strings.Contains(how, "in the checkout") {
				dir = ModuleRoot
			}
			if strings.Contains(how, "with a server") {
				startDefaultServer(t, home, env)
			}
			script := transcript(b.body)
			if strings.Contains(how, "in a terminal") {
				runInTerminal(t, env, dir, script)
				return
			}
			runs := 1
			if strings.Contains(how, "twice") {
				runs = 2
			}
			for i := 1; i <= runs; i++ {
				if i == 2 {
					startDefaultServer(t, home, env)
				}
				out, err := runShell(t, env, dir, script)
				if err != nil {
					t.Fatalf("README.md:%d, run %d: %v\n%s", b.line, i, err, out)
				}
				found := strings.Contains(out, expect)
				if wholeLine {
					found = slices.ContainsFunc(strings.Split(out, "\n"), func(l string) bool { return strings.TrimSpace(l) == expect })
				}
				if expect != "" && !found {
					t.Errorf("README.md:%d, run %d: the output lacks %q:\n%s", b.line, i, expect, out)
				}
			}
		})
	}
	if ran == 0 {
		t.Error("README.md has no block marked to run")
	}
}

func TestReadme_ConfigExamplesPassConfigCheck(t *testing.T) {
	checked := 0
	for _, b := range readmeBlocks(t) {
		if b.lang != "toml" {
			continue
		}
		checked++
		home, env := readmeEnv(t)
		cfg := filepath.Join(home, ".config", "herdr", "config.toml")
		if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cfg, []byte(b.body), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := runShell(t, env, home, "herdr config check")
		if err != nil || strings.TrimSpace(out) != "config: ok" {
			t.Errorf("README.md:%d: herdr config check on the example: %v\n%s", b.line, err, out)
		}
	}
	if checked == 0 {
		t.Error("README.md has no toml example")
	}
}

// TestReadme_ConfigExampleKeysWork: the README's config example, as
// written, rebinds the prefix and gives split_vertical a list of combos,
// every one of which splits in the interactive client.
func TestReadme_ConfigExampleKeysWork(t *testing.T) {
	var example string
	for _, b := range readmeBlocks(t) {
		if b.lang == "toml" && strings.Contains(b.body, "[keys]") {
			example = b.body
		}
	}
	if !strings.Contains(example, `split_vertical = ["prefix+v", "prefix+|"]`) || !strings.Contains(example, `prefix = "ctrl+a"`) {
		t.Fatalf("README.md has no config example with prefix = \"ctrl+a\" and split_vertical = [\"prefix+v\", \"prefix+|\"]:\n%s", example)
	}
	h := NewHome(t)
	if err := os.WriteFile(filepath.Join(h.ConfigHome, "herdr", "config.toml"), []byte(example), 0o600); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "keys")
	c := Attach(t, h, "keys", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "typed")
	for i, combo := range []string{"\x01v", "\x01|"} { // ctrl+a, then v or |
		c.Type(combo)
		WaitFor(t, "a split by combo "+strconv.Itoa(i+1), func() bool { return len(SessionSnapshot(t, s).Panes) == i+2 })
	}
}

// The help texts' examples (the Examples section of every command's
// --help, as a person reads it) are checked as the README's blocks are:
// each line is run by bash with `herdr` standing for the built binary
// given --help, so its command path and options must exist (a misspelt
// one exits 2), and `go` checking that the folders it names exist in the
// checkout. The examples helpExamplesRun names run as written against a
// server as well.

// helpExample is one example line of one command's help.
type helpExample struct {
	path string // the command whose help shows it, "pane split"
	line string
}

// helpCommand is one command of the tree, from its own --help.
type helpCommand struct {
	runnable bool // its usage has a line of its own, not only "PATH [command]"
	group    bool // it has subcommands
}

// helpTree walks the command tree as a shell's completion does (`herdr
// __complete PATH ""`), reading each command's --help: the commands (by
// path, "" the root) and every example, in walk order.
func helpTree(t *testing.T, env []string) (map[string]helpCommand, []helpExample) {
	t.Helper()
	cmds := map[string]helpCommand{}
	var examples []helpExample
	var walk func(path []string)
	walk = func(path []string) {
		key := strings.Join(path, " ")
		help, err := herdrOutput(env, append(slices.Clone(path), "--help")...)
		if err != nil {
			t.Fatalf("herdr %s --help: %v\n%s", key, err, help)
		}
		for _, m := range regexp.MustCompile(`\./cmd/[A-Za-z0-9_-]+`).FindAllString(help, -1) {
			if _, err := os.Stat(filepath.Join(ModuleRoot, m)); err != nil {
				t.Errorf("herdr %s --help names %s, which is not in the checkout", key, m)
			}
		}
		c := helpCommand{}
		section := ""
		for _, l := range strings.Split(help, "\n") {
			if l != "" && !strings.HasPrefix(l, " ") && strings.HasSuffix(l, ":") {
				section = strings.TrimSuffix(l, ":")
				continue
			}
			l = strings.TrimSpace(l)
			switch {
			case l == "":
			case section == "Usage":
				c.runnable = c.runnable || !strings.HasSuffix(l, " [command]")
				c.group = c.group || strings.HasSuffix(l, " [command]")
			case section == "Examples":
				examples = append(examples, helpExample{key, l})
			}
		}
		cmds[key] = c
		if !c.group {
			return
		}
		out, err := herdrOutput(env, append(append([]string{"__complete"}, path...), "")...)
		if err != nil {
			t.Fatalf("herdr __complete %s: %v\n%s", key, err, out)
		}
		for _, l := range strings.Split(out, "\n") {
			name, _, _ := strings.Cut(l, "\t")
			if name == "" || strings.HasPrefix(name, ":") || strings.HasPrefix(name, "-") || strings.HasPrefix(name, "Completion ") || name == "help" || name == "completion" {
				continue
			}
			walk(append(slices.Clone(path), name))
		}
	}
	walk(nil)
	if len(cmds) < 50 || len(examples) < 20 {
		t.Fatalf("the walk found %d commands and %d examples: is `herdr __complete` broken?", len(cmds), len(examples))
	}
	return cmds, examples
}

// herdrOutput runs the built herdr with env, its stdout and stderr together.
func herdrOutput(env []string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, HerdrBin, args...)
	cmd.Env, cmd.Dir = env, os.TempDir()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// exampleShell is the bash prelude for a help example: herdr records each
// call (its arguments, NUL-separated) under $REC and answers --help; a
// command that takes its words as text (pane run, send-text), for which
// --help is one more word, runs as written instead, to a socket where no
// server listens: it must get as far as asking (server_not_running). go
// checks the checkout's folders it names.
const exampleShell = `
herdr() {
	# The calls of a pipeline run at once, each in a subshell with its own
	# copy of a counter: a mkdir claims each call's number instead.
	n=1
	while ! mkdir "$REC/$n.claim" 2>/dev/null; do n=$((n+1)); done
	printf '%s\0' "$@" > "$REC/$n.args"
	code=0
	"$HERDR_BIN" "$@" --help > "$REC/$n.out" 2>&1 || code=$?
	if ! grep -q '^Usage:' "$REC/$n.out"; then
		code=0
		"$HERDR_BIN" "$@" > "$REC/$n.out" 2>&1 || code=$?
		grep -q '"server_not_running"' "$REC/$n.out" && code=0
	fi
	[ $code = 0 ] || { echo "herdr $*: exit $code:"; cat "$REC/$n.out"; exit 1; } >&2
}
go() {
	for a in "$@"; do
		case $a in ./*) [ -e "$ROOT/$a" ] || { echo "go $*: $a is not in the checkout" >&2; exit 1; } ;; esac
	done
}
`

func TestHelp_EveryExampleParses(t *testing.T) {
	_, env := readmeEnv(t)
	cmds, examples := helpTree(t, env)
	for _, ex := range examples {
		first := strings.Fields(ex.line)[0]
		if !slices.Contains([]string{"herdr", "go", "echo", "printf"}, first) {
			t.Errorf("herdr %s --help: the example %q starts %s, which this test does not know to be safe to run", ex.path, ex.line, first)
			continue
		}
		rec := t.TempDir()
		script := exampleShell + ex.line + "\n"
		cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", script)
		cmd.Dir = rec // a redirection's file lands here
		cmd.Env = append(slices.Clone(env), "REC="+rec, "HERDR_BIN="+HerdrBin, "ROOT="+ModuleRoot, "HERDR_SOCKET_PATH="+filepath.Join(rec, "none.sock"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("herdr %s --help: the example %q does not parse: %v\n%s", ex.path, ex.line, err, out)
			continue
		}
		calls := 0
		for i := 1; ; i++ {
			raw, err := os.ReadFile(filepath.Join(rec, strconv.Itoa(i)+".args"))
			if err != nil {
				break
			}
			calls++
			args := strings.Split(strings.TrimSuffix(string(raw), "\x00"), "\x00")
			if msg := exampleCommandProblem(cmds, args); msg != "" {
				t.Errorf("herdr %s --help: the example %q: %s", ex.path, ex.line, msg)
			}
		}
		if calls == 0 && first == "herdr" {
			t.Errorf("herdr %s --help: the example %q ran no herdr", ex.path, ex.line)
		}
	}
}

// exampleCommandProblem says what is wrong with herdr args beyond what
// the parser refuses: words after a group of commands that names none of
// them (cobra shows the group's help for `herdr pane spilt`).
func exampleCommandProblem(cmds map[string]helpCommand, args []string) string {
	var words []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--session", a == "--machine":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			words = append(words, a)
		}
	}
	path := ""
	for n := len(words); n >= 0; n-- {
		if _, ok := cmds[strings.Join(words[:n], " ")]; ok {
			path = strings.Join(words[:n], " ")
			if n < len(words) && cmds[path].group && !cmds[path].runnable {
				return "`herdr " + path + "` has no command " + strconv.Quote(words[n])
			}
			return ""
		}
	}
	return "no command path" // the root is always found
}

// helpExamplesRun are the help examples that run as written against a
// server, in this order, each exiting 0: the server has w1 (p1 and p2
// side by side, p3 below p2) and its tab w1:t2, and ~/src/app exists;
// they run as if typed in w1:p2 (HERDR_PANE_ID, for --current).
// The others start servers, wait for minutes, run programs in panes or
// name things that this session lacks.
var helpExamplesRun = []string{
	"herdr layout export --tab w1:t1 > layout.json",
	"herdr layout set-ratio --tab w1:t1 --ratio 0.3",
	"herdr pane focus w1:p2",
	"herdr pane focus --direction left --current",
	"herdr pane neighbor --direction right --pane w1:p1",
	"herdr pane read w1:p2 --lines 50",
	"herdr pane read w1:p2 --source visible --ansi",
	"herdr pane rename w1:p2 dev server",
	"herdr pane rename w1:p2 --clear",
	"herdr pane send-text w1:p2 'ls -la'",
	"herdr pane send-keys w1:p2 ctrl+c",
	"herdr pane zoom w1:p2 --on",
	"herdr pane zoom --current",
	"herdr pane split w1:p1 --direction right --ratio 0.4",
	"herdr pane move w1:p3 --new-tab --label logs",
	"herdr tab rename w1:t2 build logs",
	"herdr tab move w1:t3 --index 0",
	"herdr status",
	"herdr status server --json",
	"herdr workspace create --cwd ~/src/app --label app",
	"herdr workspace create --env RUST_LOG=debug --focus",
	"herdr workspace move w3 --index 0",
	"herdr workspace rename w1 api server",
}

func TestHelp_ExamplesRunAgainstAServer(t *testing.T) {
	home, env := readmeEnv(t)
	_, examples := helpTree(t, env)
	for _, want := range helpExamplesRun {
		if !slices.ContainsFunc(examples, func(e helpExample) bool { return e.line == want }) {
			t.Errorf("%q is no longer a help example: update helpExamplesRun", want)
		}
	}
	if err := os.MkdirAll(filepath.Join(home, "src", "app"), 0o700); err != nil {
		t.Fatal(err)
	}
	startDefaultServer(t, home, env)
	for _, setup := range [][]string{
		{"workspace", "create", "--cwd", home},
		{"pane", "split", "w1:p1", "--direction", "right"},
		{"pane", "split", "w1:p2", "--direction", "down"},
		{"tab", "create", "--workspace", "w1"},
	} {
		if out, err := herdrOutput(env, setup...); err != nil {
			t.Fatalf("herdr %s: %v\n%s", strings.Join(setup, " "), err, out)
		}
	}
	inPane := append(slices.Clone(env), "HERDR_PANE_ID=w1:p2")
	for _, line := range helpExamplesRun {
		out, err := runShell(t, inPane, home, line)
		if err != nil {
			t.Errorf("the help example %q: %v\n%s", line, err, out)
		}
	}
	if b, err := os.ReadFile(filepath.Join(home, "layout.json")); err != nil || !strings.Contains(string(b), `"type"`) {
		t.Errorf("layout export > layout.json wrote %q (%v)", b, err)
	}
}
