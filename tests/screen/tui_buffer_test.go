package screen

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The whole client with the paste buffers: a yank in copy mode keeps the
// selection as a server buffer (and still writes OSC 52), a toast names
// it, and prefix ] types the newest buffer into the focused pane.
func TestTUI_YankKeepsABufferAndPrefixBracketPastes(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "buf")
	c := Attach(t, h, "buf", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	c.Type("echo 'beta two words'\r")
	c.WaitText(t, "│beta two words")

	c.Type(TuiPrefix + "[")
	c.WaitText(t, "COPY")
	c.Type("?beta\r")
	c.Type("v$y")
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte("beta two words"))
	WaitFor(t, "OSC 52 with the selection", func() bool { return strings.Contains(c.Output(), want) })
	c.WaitText(t, "copied 14 bytes to buffer0")
	if got := OK[protocol.BufferInfoResult](t, s.Call("buffer.get", map[string]any{}), "buffer_info").Buffer; got.Name != "buffer0" || got.Text != "beta two words" {
		t.Fatalf("the yank kept %+v", got)
	}

	// prefix ] pastes the newest buffer into the focused pane.
	OK[protocol.BufferInfoResult](t, s.Call("buffer.set", map[string]any{"text": "echo pasted-$((6*7))"}), "buffer_info")
	c.WaitScreen(t, "copy mode to end", func(s string) bool { return !strings.Contains(s, "COPY") })
	c.Type(TuiPrefix + "]")
	c.WaitText(t, "echo pasted-$((6*7))")
	c.Type("\r")
	c.WaitText(t, "│pasted-42")
}
