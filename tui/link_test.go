package tui

import (
	"errors"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// A ctrl-click on its own (no model, no server): the cell and the view's
// scroll go to pane.link.activate; a link a plugin handled, or one that
// is not a web address, opens nothing here; a failure comes back to say.
func TestActivateLink_OnItsOwn(t *testing.T) {
	var got protocol.PaneLinkParams
	answer := protocol.PaneLinkActivated{Handled: true}
	var fail error
	call := func(method string, params, out any) error {
		if method != "pane.link.activate" {
			t.Fatalf("called %s", method)
		}
		got = params.(protocol.PaneLinkParams)
		*out.(*protocol.PaneLinkActivated) = answer
		return fail
	}
	msg := activateLink(call, &paneScreen{offset: 12}, "w1:p2", 4, 3)().(linkMsg)
	if msg.err != nil || got.PaneID != "w1:p2" || got.Col != 4 || got.ViewportRow != 3 || got.OffsetFromBottom == nil || *got.OffsetFromBottom != 12 {
		t.Fatalf("handled: msg %+v params %+v", msg, got)
	}
	file := "file:///etc/passwd"
	answer = protocol.PaneLinkActivated{URL: &file}
	if msg := activateLink(call, nil, "w1:p2", -1, -1)().(linkMsg); msg.err != nil || got.Col != 0 || *got.OffsetFromBottom != 0 {
		t.Fatalf("a file URL is not opened, and nothing is said: %+v, params %+v", msg, got)
	}
	fail = errors.New("no such pane")
	if msg := activateLink(call, nil, "w9:p1", 0, 0)().(linkMsg); msg.err == nil || msg.err.Error() != "no such pane" {
		t.Fatalf("a failure should come back: %+v", msg)
	}
	if linkOpens(file) || !linkOpens("https://example.com/x") || linkOpens("https://") {
		t.Error("only a web address with a host is opened here")
	}
}
