package protocol22

import (
	"bytes"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Protocol-22 answers checked against the schema herdr api schema prints
// (s.Call validates every line): what validation found.

// TestProtocol22_LinkResolveBelowTheViewListsNoRegions: a cell below the
// pane's view has no link; regions is then an empty list, as the schema
// declares it, not null.
func TestProtocol22_LinkResolveBelowTheViewListsNoRegions(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	pane := FirstPane(t, s)
	resp := s.Call("pane.link.resolve", map[string]any{"pane_id": pane, "viewport_row": 1000, "col": 0})
	res := OK[protocol.PaneLinkResolved](t, resp, "pane_link_resolved")
	if res.URL != nil || res.Regions == nil || len(res.Regions) != 0 || !bytes.Contains(resp.Result, []byte(`"regions":[]`)) {
		t.Fatalf("below the view: %s, want no url and regions []", resp.Result)
	}
	if got := OK[protocol.PaneLinkActivated](t, s.Call("pane.link.activate", map[string]any{"pane_id": pane, "viewport_row": 1000, "col": 0}), "pane_link_activated"); got.Handled || got.URL != nil {
		t.Fatalf("activate below the view: %+v", got)
	}
}
