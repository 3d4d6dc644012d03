package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/tui"
)

// TestRunClient_SessionSwitch: a client that ends choosing another session
// is followed by an attach to that session in the same process (which here
// stops at once: the test has no terminal); a --no-session client is told
// it cannot switch and is never let to (NoSessionSwitch), and is the only
// one not told it runs alone in its process (ClientOnly).
func TestRunClient_SessionSwitch(t *testing.T) {
	for _, noSession := range []bool{false, true} {
		var stderr bytes.Buffer
		var got []ClientOptions
		a := &app{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &stderr, env: func(string) string { return "" }, getwd: os.Getwd, noSession: noSession}
		a.rt = &Runtime{Client: func(o ClientOptions) (bool, error) {
			got = append(got, o)
			return false, &tui.SwitchSession{Name: "work"}
		}}
		code := a.runClient(ClientOptions{Socket: "/nowhere/herdr.sock"})
		// ClientOnly: only a --no-session client has its server in its
		// process (which must keep every processor).
		if len(got) != 1 || got[0].NoSessionSwitch != noSession || got[0].ClientOnly == noSession {
			t.Fatalf("noSession %v: client runs %+v", noSession, got)
		}
		switch {
		case !noSession && (a.session != "work" || code != 1 || !strings.Contains(stderr.String(), "needs a terminal")):
			t.Errorf("switch: session %q, code %d, stderr %q; want an attach to work", a.session, code, stderr.String())
		case noSession && (a.session != "" || code != 0 || !strings.Contains(stderr.String(), "herdr session attach work")):
			t.Errorf("--no-session: session %q, code %d, stderr %q; want no attach and a word on how", a.session, code, stderr.String())
		}
	}
}
