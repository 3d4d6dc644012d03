package harness

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

func GraphicsInfo(t testing.TB, s *Server, pane string) protocol.PaneGraphicsInfo {
	t.Helper()
	return OK[protocol.PaneGraphicsInfo](t, s.Call("pane.graphics.info", map[string]any{"pane_id": pane}), "pane_graphics_info")
}

func LayerIDs(info protocol.PaneGraphicsInfo) string {
	var ids []string
	for _, l := range info.Layers {
		ids = append(ids, l.LayerID)
	}
	return strings.Join(ids, ",")
}

// OpenStream opens a pane.graphics.stream and reads its ok.
func OpenStream(t *testing.T, s *Server, params map[string]any) *protocol.Client {
	t.Helper()
	c := s.Dial(t)
	_ = c.Conn().SetDeadline(time.Now().Add(WaitTimeout))
	req, _ := json.Marshal(map[string]any{"id": "gs", "method": "pane.graphics.stream", "params": params})
	if err := c.WriteLine(req); err != nil {
		t.Fatal(err)
	}
	OK[protocol.OK](t, ReadResponse(t, c), "ok")
	return c
}

// WriteFrame sends a header line and then data.
func WriteFrame(t *testing.T, c *protocol.Client, header map[string]any, data []byte) {
	t.Helper()
	h, _ := json.Marshal(header)
	if _, err := c.Conn().Write(append(append(h, '\n'), data...)); err != nil {
		t.Fatal(err)
	}
}

// FirstPane makes a workspace with focus and returns its pane.
func FirstPane(t testing.TB, s *Server) string {
	t.Helper()
	s.CreateWorkspace(t, map[string]any{"focus": true})
	return s.PaneIDs(t)[0]
}
