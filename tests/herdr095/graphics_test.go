package herdr095

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestHerdr095_GraphicsAreOursAndQuiet: Herdr 0.9.2 removed
// pane.graphics.*; ours stay, marked x-extension in `herdr api schema`,
// and a client that never calls them sees nothing of them: not in ping,
// not in a pane's info, not in a session snapshot.
func TestHerdr095_GraphicsAreOursAndQuiet(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	out, errOut, code := s.CLIT(t, "api", "schema", "--json")
	if code != 0 {
		t.Fatalf("api schema --json: exit %d: %s", code, errOut)
	}
	var doc struct {
		Schemas struct {
			Request struct {
				OneOf []struct {
					Extension  bool `json:"x-extension"`
					Properties struct {
						Method struct {
							Const string `json:"const"`
						} `json:"method"`
					} `json:"properties"`
				} `json:"oneOf"`
			} `json:"request"`
		} `json:"schemas"`
	}
	if err := protocol.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, r := range doc.Schemas.Request.OneOf {
		if name := r.Properties.Method.Const; strings.HasPrefix(name, "pane.graphics.") {
			seen++
			if !r.Extension {
				t.Errorf("%s is not marked x-extension", name)
			}
		}
	}
	if seen != 4 {
		t.Errorf("the schema lists %d pane.graphics methods, want 4", seen)
	}
	summary, _, _ := s.CLIT(t, "api", "schema")
	if !strings.Contains(summary, "the binary pane.graphics.stream also marked x-binary-stream") {
		t.Errorf("api schema summary: %s", summary)
	}
	ws := s.CreateWorkspace(t, map[string]any{"cwd": t.TempDir()})
	for _, line := range []string{
		`{"id":"g1","method":"ping","params":{}}`,
		`{"id":"g2","method":"pane.get","params":{"pane_id":"` + ws.RootPane.PaneID + `"}}`,
		`{"id":"g3","method":"session.snapshot","params":{}}`,
	} {
		got := wire(t, s, line)
		if !strings.Contains(got, `"result"`) || strings.Contains(got, `"graphics`) || strings.Contains(got, `graphics"`) || strings.Contains(got, "kitty") {
			t.Errorf("%s answered %s", line, got)
		}
		var v map[string]json.RawMessage
		if err := protocol.Unmarshal([]byte(got), &v); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
}
