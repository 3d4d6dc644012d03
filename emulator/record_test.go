package emulator

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestRecord re-records the byte streams under testdata/ by running real
// programs in a PTY of goldenCols×goldenRows, with a Terminal answering
// their queries (DA, CPR, ...) the way a pane does. It only runs with
// -record; programs that are not installed are skipped. The recorded
// streams are then replayed by TestGolden, which needs none of them.
//
//	go test ./emulator -run TestRecord -record && go test ./emulator -run TestGolden -update
var recordFlag = flag.Bool("record", false, "re-record testdata/*.in by running programs in a PTY")

// recording is one program run: keys are sent one step at a time, each
// once the output has been quiet for a moment. With kill set the program is
// killed after the last step (its final screen is the interesting part);
// otherwise the recording ends when it exits.
type recording struct {
	name  string
	argv  []string
	steps []string
	kill  bool
}

// fileText is the fixed file that vim and less show.
func fileText() string {
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("*", i%7))
		b.WriteString(" the quick brown fox jumps over the lazy dog, 世界 ")
		b.WriteString(strings.Repeat("long ", i%3*10))
		b.WriteString("\n")
	}
	return b.String()
}

const spinnerScript = `
i=0
for f in '⠋' '⠙' '⠹' '⠸' '⠼' '⠴' '⠦' '⠧' '⠇' '⠏' '⠋' '⠙'; do
  i=$((i+1))
  printf '\r\033[36m%s\033[0m Thinking… (%ds · esc to interrupt)\033[K' "$f" "$i"
done
printf '\r\033[K\033[32m✔\033[0m Done in 12s\n'
`

const progressScript = `
for p in 0 10 25 40 55 70 85 100; do
  n=$((p/5))
  bar=$(printf '%*s' "$n" '' | tr ' ' '#')
  pad=$(printf '%*s' "$((20-n))" '')
  printf '\033]9;4;1;%d\033\\\rDownloading [\033[42m%s\033[0m%s] %3d%%' "$p" "$bar" "$pad" "$p"
done
printf '\033]9;4;0;0\033\\\n'
printf 'Unpacking ▕████████████▎       ▏ 62%%\rUnpacking ▕████████████████████▏ 100%%\n'
`

// promptScript draws an agent-like input box: colours (including the colon
// forms), box characters, a hyperlink, wide characters, a title, prompt
// marks and bracketed paste.
const promptScript = `
printf '\033]0;⠂ Claude Code\007\033[?2004h\033]133;A\007'
printf '\033[1m\033[38;2;215;119;87m✻\033[0m Welcome to \033[1mAgent\033[0m!\r\n\r\n'
printf '  /help for help, \033]8;;https://example.com/docs\033\\docs\033]8;;\033\\ · cwd: /tmp/项目\r\n\r\n'
printf '\033[38;5;244m╭──────────────────────────────────────────────────────────╮\033[0m\r\n'
printf '\033[38;5;244m│\033[0m > \033[4:3;58:2::255:0:0mfix the tset\033[0m please                                    \033[38;5;244m│\033[0m\r\n'
printf '\033[38;5;244m╰──────────────────────────────────────────────────────────╯\033[0m\r\n'
printf '  \033[2m? for shortcuts\033[0m\033[30G\033[7m auto-accept \033[0m\r\n'
printf '\033]133;B\007\033[3A\033[5C'
`

// topScript redraws a full screen like htop: alternate screen, a scroll
// region for the process list, absolute moves, reverse-video header,
// erase-in-line and a final exit that restores the shell screen.
const topScript = `
printf 'before top\r\n'
printf '\033[?1049h\033[?25l'
for tick in 1 2 3; do
  printf '\033[H\033[2J'
  printf '\033[1;1H  CPU[\033[32m||||\033[31m||\033[0m%*s%d.%d%%]' 20 '' "$tick" "$tick"
  printf '\033[2;1H  Mem[\033[32m|||||||||\033[0m%*s1.2G/3.8G]' 16 ''
  printf '\033[3;1H  Tasks: %d, 1 running\033[K' $((40+tick))
  printf '\033[5;1H\033[30;42m    PID USER       CPU%% MEM%%   TIME+  Command%*s\033[0m' 30 ''
  printf '\033[6;23r'
  row=6
  for pid in 101 202 303 404 505 606 707 808 909; do
    printf '\033[%d;1H%7d root       %4d  0.%d  0:0%d.00 /usr/bin/prog-%d\033[K' $row $pid $(( (pid+tick) % 97 )) $tick $tick $pid
    row=$((row+1))
  done
  printf '\033[23;1H\n\033[22;1Hscrolled line %d' $tick
  printf '\033[r'
  printf '\033[24;1H\033[30;46mF1\033[0mHelp  \033[30;46mF10\033[0mQuit\033[K'
done
`

var recordings = []recording{
	{name: "vim", argv: []string{"vim", "-u", "NONE", "-i", "NONE", "-N", "-n", "file.txt"},
		steps: []string{":set number\r", "12G", "A appended 世界\x1b", ":syntax on\r"}, kill: true},
	{name: "vim_exit", argv: []string{"vim", "-u", "NONE", "-i", "NONE", "-N", "-n", "file.txt"},
		steps: []string{"Gdd", ":q!\r"}},
	{name: "less", argv: []string{"less", "-S", "file.txt"}, steps: []string{" ", "/fox\r"}, kill: true},
	{name: "spinner", argv: []string{"bash", "-c", spinnerScript}},
	{name: "progress", argv: []string{"bash", "-c", progressScript}},
	{name: "prompt", argv: []string{"bash", "-c", promptScript}},
	{name: "top", argv: []string{"bash", "-c", topScript + "printf '\\033[?1049l\\033[?25hafter top\\r\\n'"}},
	{name: "top_running", argv: []string{"bash", "-c", topScript}},
}

func TestRecord(t *testing.T) {
	if !*recordFlag {
		t.Skip("run with -record to re-record testdata/*.in")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file.txt"), []byte(fileText()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rec := range recordings {
		t.Run(rec.name, func(t *testing.T) {
			if _, err := exec.LookPath(rec.argv[0]); err != nil {
				t.Skipf("%s not installed", rec.argv[0])
			}
			out := record(t, dir, rec)
			if err := os.WriteFile(filepath.Join("testdata", rec.name+".in"), out, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// record runs one program and returns everything it wrote.
func record(t *testing.T, dir string, rec recording) []byte {
	cmd := exec.Command(rec.argv[0], rec.argv[1:]...)
	cmd.Dir = dir
	cmd.Env = []string{"TERM=xterm-256color", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "HOME=" + dir,
		"PATH=" + os.Getenv("PATH"), "LESSHISTFILE=-", "LESS=", "SHELL=/bin/sh"}
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: goldenCols, Rows: goldenRows})
	if err != nil {
		t.Fatalf("start %s: %v", rec.name, err)
	}
	defer ptmx.Close()

	var (
		mu   sync.Mutex
		out  bytes.Buffer
		last = time.Now()
	)
	term := New(goldenCols, goldenRows, Options{Reply: func(b []byte) { _, _ = ptmx.Write(b) }})
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 32*1024)
		for {
			n, err := ptmx.Read(buf)
			if n > 0 {
				mu.Lock()
				out.Write(buf[:n])
				term.Write(buf[:n])
				last = time.Now()
				mu.Unlock()
			}
			if err != nil {
				// EIO is how Linux reports that the program side closed.
				if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) && !errors.Is(err, syscall.EIO) {
					t.Logf("%s: read ends: %v", rec.name, err)
				}
				return
			}
		}
	}()
	// quiet waits until nothing was written for a while (this is a
	// recorder driving an interactive program, not a test assertion).
	quiet := func() {
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			mu.Lock()
			idle := time.Since(last)
			mu.Unlock()
			if idle > 400*time.Millisecond {
				return
			}
		}
	}
	for _, keys := range rec.steps {
		quiet()
		if _, err := ptmx.Write([]byte(keys)); err != nil {
			t.Fatalf("send %q: %v", keys, err)
		}
	}
	if rec.kill {
		quiet()
		mu.Lock()
		data := bytes.Clone(out.Bytes())
		mu.Unlock()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return data
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not exit", rec.name)
	}
	_ = cmd.Wait()
	return out.Bytes()
}
