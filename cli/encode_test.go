package cli

import (
	"encoding/json"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// encodeRequest writes what json.Marshal of a protocol.Request writes:
// ids and methods that need escaping (quotes, HTML, control and non-ASCII
// characters), and params of every shape, none and a nil pointer included.
func TestEncodeRequest_AsMarshal(t *testing.T) {
	var nilParams *protocol.PaneTarget
	for _, c := range []struct {
		id, method string
		params     any
	}{
		{"cli:pane:list", "pane.list", nil},
		{`a"b\c`, "ping", struct{}{}},
		{"<&>\u2028é\x01", "pane.get", protocol.PaneTarget{PaneID: "w1:p1"}},
		{"", "", map[string]any{"z": 1, "a": []string{"<x>"}}},
		{"n", "pane.get", nilParams},
	} {
		got, err := encodeRequest(c.id, c.method, c.params)
		if err != nil {
			t.Fatal(err)
		}
		params := c.params
		if params == nil {
			params = struct{}{}
		}
		p, _ := json.Marshal(params)
		want, _ := json.Marshal(protocol.Request{ID: c.id, Method: c.method, Params: p})
		if string(got) != string(want) {
			t.Errorf("%q %q: %s, json.Marshal %s", c.id, c.method, got, want)
		}
	}
}
