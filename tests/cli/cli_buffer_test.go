package cli

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The paste buffers (issue 46) through the socket and the CLI: set (named
// and numbered), list newest first, get (the text as kept, raw on stdout),
// delete, and the errors a person sees.
func TestE2E_Buffer_MethodsAndVerbs(t *testing.T) {
	s := StartServer(t)
	Fail(t, s.Call("buffer.get", map[string]any{}), protocol.CodeBufferNotFound)
	set := OK[protocol.BufferInfoResult](t, s.Call("buffer.set", map[string]any{"text": "first\n"}), "buffer_info").Buffer
	if set.Name != "buffer0" || set.Bytes != 6 {
		t.Fatalf("buffer.set answered %+v", set)
	}
	out, stderr, code := s.CLI("buffer", "set", "two words", "--name", "mine")
	if code != 0 || OK[protocol.BufferInfoResult](t, CLIResponse(t, out), "buffer_info").Buffer.Name != "mine" {
		t.Fatalf("buffer set --name: exit %d %q %q", code, out, stderr)
	}
	out, stderr, code = s.CLI("buffer", "set", "third")
	if code != 0 || OK[protocol.BufferInfoResult](t, CLIResponse(t, out), "buffer_info").Buffer.Name != "buffer1" {
		t.Fatalf("buffer set: exit %d %q %q", code, out, stderr)
	}
	out, _, code = s.CLI("buffer", "list")
	var names []string
	for _, b := range OK[protocol.BufferList](t, CLIResponse(t, out), "buffer_list").Buffers {
		names = append(names, b.Name)
		if b.Text != "" {
			t.Errorf("buffer list carries %s's text", b.Name)
		}
	}
	if code != 0 || strings.Join(names, " ") != "buffer1 mine buffer0" {
		t.Fatalf("buffer list: exit %d, %v", code, names)
	}
	// get prints the text itself; the newest when none is named.
	if out, _, code = s.CLI("buffer", "get", "buffer0"); code != 0 || out != "first\n" {
		t.Fatalf("buffer get buffer0: exit %d %q", code, out)
	}
	if out, _, code = s.CLI("buffer", "get"); code != 0 || out != "third" {
		t.Fatalf("buffer get: exit %d %q", code, out)
	}
	out, _, _ = s.CLI("buffer", "get", "mine", "--json")
	if got := OK[protocol.BufferInfoResult](t, CLIResponse(t, out), "buffer_info").Buffer; got.Text != "two words" {
		t.Fatalf("buffer get --json: %+v", got)
	}
	// delete, then the name is unknown: the server's error, exit 1.
	if out, stderr, code = s.CLI("buffer", "delete", "mine"); code != 0 || out != "" {
		t.Fatalf("buffer delete: exit %d %q %q", code, out, stderr)
	}
	if _, stderr, code = s.CLI("buffer", "get", "mine"); code != 1 || !strings.Contains(stderr, protocol.CodeBufferNotFound) {
		t.Fatalf("buffer get of a deleted buffer: exit %d %q", code, stderr)
	}
	// set reads stdin when no text is given.
	cmd := exec.Command(HerdrBin, "--session", s.Name, "buffer", "set", "--name", "piped")
	cmd.Env, cmd.Stdin = s.Env, strings.NewReader("from stdin\n")
	if b, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(b), `"name":"piped"`) {
		t.Fatalf("buffer set from stdin: %v %s", err, b)
	}
	if out, _, code = s.CLI("buffer", "get", "piped"); code != 0 || out != "from stdin\n" {
		t.Fatalf("buffer get piped: exit %d %q", code, out)
	}
	// Bad input is a usage error before any socket use, exit 2.
	if _, stderr, code = s.CLI("buffer", "set", "x", "--name", "a b"); code != 2 || !strings.Contains(stderr, "name") {
		t.Fatalf("a name with a space: exit %d %q", code, stderr)
	}
	if _, stderr, code = s.CLI("buffer", "paste", "--buffer", "buffer0"); code != 2 || !strings.Contains(stderr, "pane") {
		t.Fatalf("paste with no pane outside a pane: exit %d %q", code, stderr)
	}
	Fail(t, s.Call("buffer.set", map[string]any{"text": strings.Repeat("x", protocol.BufferMaxBytes+1)}), protocol.CodeInvalidParams)
	Fail(t, s.Call("buffer.paste", map[string]any{"pane_id": "w9:p9"}), protocol.CodePaneNotFound)
}

// buffer.paste types a buffer into a real pane: as it is when the program
// did not ask for bracketed paste, wrapped when it did; either way a paste
// end marker inside the text is dropped, so the paste is not ended early.
func TestE2E_Buffer_PasteIntoAPane(t *testing.T) {
	s := StartServer(t)
	s.CreateWorkspace(t, map[string]any{})
	p := "w1:p1"
	OK[protocol.BufferInfoResult](t, s.Call("buffer.set", map[string]any{"text": "left\x1b[201~right\n", "name": "marked"}), "buffer_info")
	OK[protocol.BufferInfoResult](t, s.Call("buffer.set", map[string]any{"text": "newest-text\n"}), "buffer_info")

	// Not bracketed: the text as typed keys, less the marker.
	s.Run(t, p, `printf '\033[?2004l'; echo plain-$((1+1)); cat -v`)
	WaitFor(t, "cat running", func() bool { return HasLine(s.Read(t, p, "recent", 0).Text, "plain-2") })
	if out, stderr, code := s.CLI("buffer", "paste", p, "--buffer", "marked"); code != 0 || out != "" {
		t.Fatalf("buffer paste: exit %d %q %q", code, out, stderr)
	}
	WaitFor(t, "the plain paste", func() bool { return HasLine(s.Read(t, p, "recent", 0).Text, "leftright") })
	if text := s.Read(t, p, "recent", 0).Text; strings.Contains(text, "200~") {
		t.Fatalf("an unbracketed pane got paste markers:\n%s", text)
	}
	// The newest buffer when none is named, into the calling pane.
	if out, stderr, code := RunCLI(t, append(slices.Clone(s.Env), "HERDR_PANE_ID="+p), "--session", s.Name, "buffer", "paste"); code != 0 || out != "" {
		t.Fatalf("buffer paste in a pane: exit %d %q %q", code, out, stderr)
	}
	WaitFor(t, "the newest buffer", func() bool { return HasLine(s.Read(t, p, "recent", 0).Text, "newest-text") })
	OK[protocol.OK](t, s.Call("pane.send_keys", map[string]any{"pane_id": p, "keys": []string{"ctrl+c"}}), "ok")
	// The shell's prompt after the ^C: a line typed while cat still runs
	// is flushed with it by the terminal's interrupt.
	WaitFor(t, "the prompt after ^C", func() bool {
		text := strings.TrimRight(s.Read(t, p, "recent", 0).Text, " \n")
		i := strings.LastIndex(text, "^C\n")
		return i >= 0 && strings.TrimSpace(text[i+3:]) != ""
	})

	// Bracketed: wrapped once, the inner marker gone.
	s.Run(t, p, `printf '\033[?2004h'; echo paste-$((1+1)); cat -v`)
	WaitFor(t, "bracketed paste on", func() bool { return HasLine(s.Read(t, p, "recent", 0).Text, "paste-2") })
	OK[protocol.OK](t, s.Call("buffer.paste", map[string]any{"pane_id": p, "buffer": "marked"}), "ok")
	WaitFor(t, "the bracketed paste", func() bool {
		return strings.Contains(s.Read(t, p, "recent", 0).Text, "^[[200~leftright")
	})
	if text := s.Read(t, p, "recent", 0).Text; strings.Contains(text, "left^[[201~") {
		t.Fatalf("the paste was ended early by the marker in its text:\n%s", text)
	}
	OK[protocol.OK](t, s.Call("pane.send_keys", map[string]any{"pane_id": p, "keys": []string{"ctrl+c"}}), "ok")
	Fail(t, s.Call("buffer.paste", map[string]any{"pane_id": p, "buffer": "nope"}), protocol.CodeBufferNotFound)
}
