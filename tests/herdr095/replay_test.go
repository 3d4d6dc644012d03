//go:build !windows

package herdr095

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// step is one line of testdata/herdr095.replay (its header says how a
// step is compared).
type step struct {
	Note     string          `json:"note"`
	Send     json.RawMessage `json:"send"`
	Answer   json.RawMessage `json:"answer"`
	Vary     []string        `json:"vary"`
	Ours     []string        `json:"ours"`
	Optional []string        `json:"optional"`
}

// TestHerdr095_Replay plays the recorded conversation of a Herdr 0.9.5
// client against a fresh server and diffs every answer with Herdr's,
// field by field: keys, JSON types, and values where they are
// deterministic. (Unix: a Windows server has no live handoff and no ssh
// agent registration, which ping and the registration say.)
func TestHerdr095_Replay(t *testing.T) {
	t.Parallel()
	steps := readReplay(t, filepath.Join("testdata", "herdr095.replay"))
	s := StartServer(t)
	c := s.Dial(t)
	for _, st := range steps {
		var req protocol.Request
		if err := protocol.Unmarshal(st.Send, &req); err != nil {
			t.Fatalf("%s: send: %v", st.Note, err)
		}
		got, err := c.RoundTrip(st.Send)
		if err != nil {
			t.Fatalf("%s: %v", st.Note, err)
		}
		var want, have any
		if err := protocol.Unmarshal(st.Answer, &want); err != nil {
			t.Fatalf("%s: recorded answer: %v", st.Note, err)
		}
		if err := protocol.Unmarshal(got, &have); err != nil {
			t.Fatalf("%s: the server answered no JSON: %s", st.Note, got)
		}
		for _, d := range diffShape(want, have, "", &st) {
			t.Errorf("%s (%s): %s", req.ID, st.Note, d)
		}
		if req.Method == "pane.send_text" {
			s.WaitLine(t, "w1:p1", "replay") // what the read after it reads
		}
	}
}

func readReplay(t *testing.T, path string) []step {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var steps []step
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var st step
		if err := protocol.Unmarshal(line, &st); err != nil {
			t.Fatalf("%s: %v: %s", path, err, line)
		}
		steps = append(steps, st)
	}
	if len(steps) == 0 {
		t.Fatalf("%s holds no step", path)
	}
	return steps
}

// diffShape lists where have differs from Herdr's want at path.
func diffShape(want, have any, path string, st *step) []string {
	if kind(want) != kind(have) {
		return []string{fmt.Sprintf("%s: Herdr's is a %s (%s), this server's a %s (%s)", show(path), kind(want), brief(want), kind(have), brief(have))}
	}
	var out []string
	switch w := want.(type) {
	case map[string]any:
		h := have.(map[string]any)
		for _, k := range sortedKeys(w) {
			p := join(path, k)
			hv, ok := h[k]
			if !ok {
				if !slices.Contains(st.Optional, p) {
					out = append(out, fmt.Sprintf("%s: missing (Herdr sends %s)", show(p), brief(w[k])))
				}
				continue
			}
			out = append(out, diffShape(w[k], hv, p, st)...)
		}
		for _, k := range sortedKeys(h) {
			if _, ok := w[k]; !ok && !slices.Contains(st.Ours, join(path, k)) {
				out = append(out, fmt.Sprintf("%s: not Herdr's (this server sends %s)", show(join(path, k)), brief(h[k])))
			}
		}
	case []any:
		hv := have.([]any)
		if len(w) != len(hv) {
			return append(out, fmt.Sprintf("%s: %d elements, Herdr's %d", show(path), len(hv), len(w)))
		}
		for i := range w {
			out = append(out, diffShape(w[i], hv[i], path+"[]", st)...)
		}
	default:
		if slices.Contains(st.Vary, path) || strings.HasSuffix(path, "error.message") {
			return nil
		}
		if !reflect.DeepEqual(want, have) {
			out = append(out, fmt.Sprintf("%s: %s, Herdr's %s", show(path), brief(have), brief(want)))
		}
	}
	return out
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

func brief(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func show(path string) string {
	if path == "" {
		return "the answer"
	}
	return path
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestHerdr095_ReplayDiffFails: the comparison catches each kind of
// difference (a missing key, one not Herdr's, another JSON type, another
// value, another length), and lets through what a step allows.
func TestHerdr095_ReplayDiffFails(t *testing.T) {
	t.Parallel()
	st := &step{Vary: []string{"result.n"}, Ours: []string{"result.extra"}, Optional: []string{"result.opt"}}
	want := map[string]any{"id": "x", "result": map[string]any{"type": "t", "n": 1.0, "opt": "o", "list": []any{1.0}}}
	same := map[string]any{"id": "x", "result": map[string]any{"type": "t", "n": 2.0, "extra": true, "list": []any{1.0}}}
	if d := diffShape(want, same, "", st); len(d) != 0 {
		t.Fatalf("allowed differences reported: %v", d)
	}
	for _, c := range []struct {
		have map[string]any
		want string
	}{
		{map[string]any{"id": "x", "result": map[string]any{"type": "t", "list": []any{1.0}}}, "result.n: missing"},
		{map[string]any{"id": "x", "result": map[string]any{"type": "t", "n": 1.0, "list": []any{1.0}, "new": 1.0}}, "result.new: not Herdr's"},
		{map[string]any{"id": "x", "result": map[string]any{"type": "t", "n": "1", "list": []any{1.0}}}, "result.n: Herdr's is a number"},
		{map[string]any{"id": "x", "result": map[string]any{"type": "u", "n": 1.0, "list": []any{1.0}}}, `result.type: "u", Herdr's "t"`},
		{map[string]any{"id": "x", "result": map[string]any{"type": "t", "n": 1.0, "list": []any{}}}, "result.list: 0 elements, Herdr's 1"},
	} {
		if d := diffShape(want, c.have, "", st); len(d) != 1 || !strings.HasPrefix(d[0], c.want) {
			t.Errorf("%v: got %v, want one difference %q", c.have, d, c.want)
		}
	}
}
