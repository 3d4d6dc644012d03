package protocol

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestMethods_DecodeParams(t *testing.T) {
	cases := []struct {
		name, method, params string
		wantCode, wantInMsg  string
	}{
		{"ok empty", "ping", `{}`, "", ""},
		{"ok missing params", "workspace.list", ``, "", ""},
		{"unknown", "nope.nope", `{}`, CodeUnknownMethod, "nope.nope"},
		{"graphics info", "pane.graphics.info", `{"pane_id":"w1:p1"}`, "", ""},
		{"missing field", "pane.read", `{"pane_id":"w1:p1"}`, CodeInvalidParams, "source"},
		{"bad enum", "pane.read", `{"pane_id":"w1:p1","source":"all"}`, CodeInvalidParams, "source"},
		{"wrong type", "pane.read", `{"pane_id":"w1:p1","source":"recent","lines":"x"}`, CodeInvalidParams, "lines"},
		{"params not object", "pane.get", `[1]`, CodeInvalidParams, "params"},
		{"unknown fields ignored", "pane.get", `{"pane_id":"w1:p1","extra":1}`, "", ""},
		{"misspelt split target", "pane.split", `{"direction":"right","pane_id":"w2:p1"}`, CodeInvalidParams, `unknown field "pane_id"; did you mean "target_pane_id"?`},
		{"escaped misspelt target", "pane.split", `{"direction":"right","pane\u005fid":"w2:p1"}`, CodeInvalidParams, `unknown field "pane_id"`},
		{"split target given, extra id ignored", "pane.split", `{"direction":"right","target_pane_id":"w1:p1","pane_id":"w1:p1"}`, "", ""},
		{"split workspace given, extra id ignored", "pane.split", `{"direction":"right","workspace_id":"w1","session_id":"s"}`, "", ""},
		{"split harmless extra", "pane.split", `{"direction":"right","command":"x","nested":{"pane_id":"w1:p1"}}`, "", ""},
		{"zoom misspelt target", "pane.zoom", `{"target_pane_id":"w1:p1"}`, CodeInvalidParams, `did you mean "pane_id"?`},
		{"agent target misspelt", "agent.read", `{"pane_id":"w1:p1"}`, CodeInvalidParams, `unknown field "pane_id"; did you mean "target"?`},
		{"extra id beside a required target", "pane.report_agent", `{"pane_id":"w1:p1","source":"s","agent":"claude","state":"idle","agent_session_id":"x","run_id":"r"}`, "", ""},
		{"method without target fields", "workspace.list", `{"pane_id":"w1:p1"}`, "", ""},
		{"bad key", "pane.send_keys", `{"pane_id":"w1:p1","keys":["a","prefix+c"]}`, CodeInvalidKey, "prefix+c"},
		{"split direction", "pane.split", `{"direction":"left"}`, CodeInvalidParams, "direction"},
		{"split ratio", "pane.split", `{"direction":"right","ratio":1.5}`, CodeInvalidRatio, "ratio"},
		{"bad env", "workspace.create", `{"env":{"":"x"}}`, CodeInvalidEnv, ""},
		{"popup open", "popup.open", `{"command":"echo hi","title":"t","width":"80%","height":12,"cwd":"/tmp","env":{"A":"1"}}`, "", ""},
		{"popup open no command", "popup.open", `{"title":"t"}`, CodeInvalidParams, "command"},
		{"popup open blank command", "popup.open", `{"command":"  "}`, CodeInvalidParams, "command"},
		{"popup open bad width", "popup.open", `{"command":"x","width":"120"}`, CodeInvalidParams, "width"},
		{"popup open bad height", "popup.open", `{"command":"x","height":-3}`, CodeInvalidParams, "height"},
		{"popup open relative cwd", "popup.open", `{"command":"x","cwd":"rel"}`, CodeInvalidRequest, "cwd"},
		{"popup open bad env", "popup.open", `{"command":"x","env":{"A=B":"1"}}`, CodeInvalidEnv, ""},
		{"popup open command type", "popup.open", `{"command":5}`, CodeInvalidParams, "command"},
		{"wait match type", "pane.wait_for_output", `{"pane_id":"p","source":"recent","match":{"type":"glob","value":"x"}}`, CodeInvalidParams, "match.type"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeParams(c.method, json.RawMessage(c.params))
			if c.wantCode == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			e := AsError(err)
			if err == nil || e.Code != c.wantCode || !strings.Contains(e.Message, c.wantInMsg) {
				t.Fatalf("err = %v, want code %s mentioning %q", err, c.wantCode, c.wantInMsg)
			}
		})
	}
}

func TestMethods_TableIsComplete(t *testing.T) {
	for _, m := range Methods() {
		if !herdrMethods()[m.Name] && !m.Extension {
			t.Errorf("%s is not a Herdr method", m.Name)
		}
		if m.Result == "" || m.Summary == "" {
			t.Errorf("%s lacks a result type or summary", m.Name)
		}
	}
	if len(herdrMethods()) != 102 { // 103 protocol-22 schema methods + pane.graphics.stream from the seeds - the four pane.graphics.* (removed by Herdr 0.9.2) + pane.clear + server.ssh_agent.register (0.9.2)
		t.Errorf("herdrMethods has %d names", len(herdrMethods()))
	}
	// Every method of the Herdr surface is built: none answers not_implemented.
	for name := range herdrMethods() {
		if _, ok := Lookup(name); !ok {
			t.Errorf("%s is not built (answers not_implemented)", name)
		}
	}
}

func TestEnvelope_Encode(t *testing.T) {
	line, err := EncodeSuccess("7", OK{})
	if err != nil || string(line) != `{"id":"7","result":{"type":"ok"}}` {
		t.Fatalf("ok = %s, %v", line, err)
	}
	line, _ = EncodeSuccess("8", Pong{Version: "v", Protocol: 20})
	if string(line) != `{"id":"8","result":{"type":"pong","version":"v","protocol":20}}` {
		t.Fatalf("pong = %s", line)
	}
	line = EncodeError("", Errorf(CodeInvalidRequest, "bad"))
	if string(line) != `{"id":"","error":{"code":"invalid_request","message":"bad"}}` {
		t.Fatalf("error = %s", line)
	}
}

func FuzzDecodeRequest(f *testing.F) {
	f.Add([]byte(`{"id":"1","method":"pane.read","params":{"pane_id":"w1:p1","source":"recent"}}`))
	f.Add([]byte(`{"id":1}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, line []byte) {
		req, err := DecodeRequest(line)
		if err != nil {
			if AsError(err).Code != CodeInvalidRequest {
				t.Fatalf("decode error code %s", AsError(err).Code)
			}
			return
		}
		if _, err := DecodeParams(req.Method, req.Params); err != nil {
			code := AsError(err).Code
			if code == CodeInternal {
				t.Fatalf("params error is internal: %v", err)
			}
		}
	})
}

// Summary, which reads the area lists without building the table, agrees
// with the table for every method and knows no other.
func TestSummary_AgreesWithTheTable(t *testing.T) {
	for _, m := range Methods() {
		if s, ok := Summary(m.Name); !ok || s != m.Summary {
			t.Errorf("Summary(%s) = %q, %v; the table has %q", m.Name, s, ok, m.Summary)
		}
	}
	if s, ok := Summary("no.such_method"); ok || s != "" {
		t.Errorf("Summary of an unknown method = %q, %v", s, ok)
	}
}

// Every method says where it comes from: the Herdr version that introduced
// it, or that it is this server's own; never both, never neither. An
// extension is no method of Herdr's surface, and, where the Herdr spec is
// beside the checkout (../shared/spec from its root), no method it lists.
func TestMethods_SinceOrExtension(t *testing.T) {
	version := regexp.MustCompile(`^0\.[0-9]+\.[0-9]+$`)
	for _, m := range Methods() {
		switch {
		case m.Extension && m.Since != "":
			t.Errorf("%s: an extension with since %q", m.Name, m.Since)
		case !m.Extension && !version.MatchString(m.Since):
			t.Errorf("%s: since %q is no Herdr version, and it is not an extension", m.Name, m.Since)
		case m.Extension && herdrMethods()[m.Name]:
			t.Errorf("%s: an extension, but Herdr has it", m.Name)
		}
		if m.Pipeline && m.Shape != ShapeAnswer {
			t.Errorf("%s: pipelined by the CLI but not one answer (%s)", m.Name, m.Shape)
		}
		if e, ok := Entry(m.Name); !ok || e.Since != m.Since || e.Extension != m.Extension {
			t.Errorf("%s: Entry disagrees with the table", m.Name)
		}
	}
	spec := filepath.Join("..", "..", "shared", "spec")
	var listed []string
	for file, section := range map[string]string{"methods.md": "## 1. Request methods", "protocol-22.md": "## New methods"} {
		b, err := os.ReadFile(filepath.Join(spec, file))
		if err != nil {
			t.Skipf("no Herdr spec beside the checkout (%v): extensions not compared with it", err)
		}
		_, b, _ = bytes.Cut(b, []byte(section))
		b, _, _ = bytes.Cut(b, []byte("\n## "))
		for _, m := range regexp.MustCompile("(?m)^\\|(?: [0-9]+ \\|)? `([a-z_.]+)` \\|").FindAllSubmatch(b, -1) {
			listed = append(listed, string(m[1]))
		}
	}
	if len(listed) != 91+12 {
		t.Fatalf("read %d methods from the spec, want 103", len(listed))
	}
	for _, name := range listed {
		if strings.HasPrefix(name, "pane.graphics.") {
			continue // removed by Herdr 0.9.2; ours since, as extensions
		}
		if m, ok := Lookup(name); !ok || m.Extension {
			t.Errorf("the spec's %s: built %v, extension %v", name, ok, m.Extension)
		}
	}
}
