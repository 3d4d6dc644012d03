package herdr095

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	. "github.com/herdr-go/herdr/tests/harness"
)

// TestHerdr095_TerminalMouse: terminal.mouse on a `terminal session
// control` stream reaches the pane as the program asked for the mouse
// (SGR here: press and release), and what it did not ask for (motion,
// drags, any event before it asked) is dropped, not typed. The pane's
// program is only `sleep`, so the line discipline's echo (^[ for ESC)
// shows exactly the bytes that arrived.
func TestHerdr095_TerminalMouse(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	ws := s.CreateWorkspace(t, map[string]any{"cwd": t.TempDir()})
	pane := ws.RootPane.PaneID
	s.WaitPrompt(t, pane)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, HerdrBin, "--session", s.Name, "terminal", "session", "control", ws.RootPane.TerminalID, "--cols", "60", "--rows", "12")
	cmd.Env = s.Env
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errb := &SyncBuffer{}
	cmd.Stderr = errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); _ = cmd.Wait() }()
	frames := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var l struct {
				Bytes string `json:"bytes"`
			}
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				b, _ := base64.StdEncoding.DecodeString(l.Bytes)
				frames <- string(b)
			}
		}
		close(frames)
	}()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	waitFrame := func(want string) {
		t.Helper()
		deadline := time.After(WaitTimeout)
		for {
			select {
			case f, ok := <-frames:
				if !ok {
					t.Fatalf("the stream ended before %q; stderr: %s", want, errb.String())
				}
				if strings.Contains(f, want) {
					return
				}
			case <-deadline:
				t.Fatalf("no frame showed %q; stderr: %s", want, errb.String())
			}
		}
	}
	waitFrame("") // the first frame: the stream is up

	down := `{"type":"terminal.mouse","action":"down","button":"left","column":2,"row":1}`
	send(down) // before the program asked for the mouse: dropped
	send(`{"type":"terminal.input","text":"printf '\\033[?1000h\\033[?1006h'; echo mouse-$((6*7)); sleep 60\r"}`)
	waitFrame("mouse-42")
	send(down)
	send(`{"type":"terminal.mouse","action":"move","button":"left","column":4,"row":1}`)   // no ?1003: dropped
	send(`{"type":"terminal.mouse","action":"drag","button":"left","column":4,"row":1}`)   // no ?1002: dropped
	send(`{"type":"terminal.mouse","action":"up","button":"left","column":2,"row":1}`)     // SGR release
	send(`{"type":"terminal.mouse","action":"down","button":"right","column":99,"row":1}`) // off the viewport: dropped
	send(`{"type":"terminal.mouse","action":"down","button":"left","column":5,"row":1}`)
	waitFrame("^[[<0;6;2M")
	text := s.Read(t, pane, "visible", 0).Text
	if !strings.Contains(text, "^[[<0;3;2M^[[<0;3;2m^[[<0;6;2M") || strings.Count(text, "^[") != 3 {
		t.Fatalf("the pane received (echoed):\n%s\nwant exactly ^[[<0;3;2M^[[<0;3;2m^[[<0;6;2M", text)
	}
	send(`{"type":"terminal.mouse","action":"hover","button":"left","column":1,"row":1}`)
	WaitFor(t, "the bad line reported", func() bool {
		return strings.Contains(errb.String(), `terminal.mouse action must be down, up, drag or move, got "hover"`)
	})
}
