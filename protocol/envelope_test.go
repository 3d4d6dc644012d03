package protocol

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

func TestEnvelope_DecodeRequest(t *testing.T) {
	cases := []struct {
		name, line         string
		wantID, wantMethod string
		wantParams         string
		wantErr            string // part of the invalid_request message; "" = accepted
	}{
		{"plain", `{"id":"1","method":"ping","params":{}}`, "1", "ping", `{}`, ""},
		{"spaces", " {\t\"id\" : \"1\" ,\n\"method\":\"ping\" } ", "1", "ping", ``, ""},
		{"escaped id", `{"id":"a\"b\\","method":"ping"}`, `a"b\`, "ping", ``, ""},
		{"unknown keys ignored", `{"x":{"method":"no"},"id":"1","method":"ping","y":[1,"]"]}`, "1", "ping", ``, ""},
		{"params keep their own keys", `{"id":"1","method":"pane.get","params":{"pane_id":"a","pane_id":"b"}}`, "1", "pane.get", `{"pane_id":"a","pane_id":"b"}`, ""},
		{"keys are case-sensitive", `{"id":"1","ID":"2","method":"ping","Method":"workspace.close"}`, "1", "ping", ``, ""},
		{"null params", `{"id":"1","method":"ping","params":null}`, "1", "ping", `null`, ""},

		// Herdr rejects these; encoding/json alone accepted every one.
		{"duplicate method", `{"id":"1","method":"ping","method":"workspace.list"}`, "1", "", ``, "duplicate field `method`"},
		{"duplicate params", `{"id":"1","method":"ping","params":{},"params":{}}`, "1", "", ``, "duplicate field `params`"},
		{"duplicate id", `{"id":"1","method":"ping","id":"2"}`, "", "", ``, "duplicate field `id`"},
		{"duplicate by escape", `{"id":"1","method":"ping","\u006dethod":"workspace.list"}`, "1", "", ``, "duplicate field `method`"},
		{"missing id", `{"method":"ping"}`, "", "", ``, "missing field `id`"},
		{"upper-case id is not id", `{"ID":"1","method":"ping"}`, "", "", ``, "missing field `id`"},
		{"null id", `{"id":null,"method":"ping"}`, "", "", ``, "`id` must be a string"},
		{"numeric id", `{"id":1,"method":"ping"}`, "", "", ``, "`id` must be a string"},
		{"invalid UTF-8 in a string", "{\"id\":\"1\",\"method\":\"pane.send_text\",\"params\":{\"pane_id\":\"p\",\"text\":\"\xff\xfe\"}}", "1", "", ``, "UTF-8"}, // the id was readable: kept
		{"invalid UTF-8 in the id", "{\"id\":\"\xc3\",\"method\":\"ping\"}", "", "", ``, "UTF-8"},

		{"missing method", `{"id":"4"}`, "4", "", ``, "missing field `method`"},
		{"method not a string", `{"id":"4","method":7}`, "4", "", ``, "`method` must be a string"},
		{"not an object", `["ping"]`, "", "", ``, "expected a JSON object"},
		{"bad JSON", `{"id":"1",`, "1", "", ``, "invalid request"},
		{"bad JSON, id not first", `{"method":"ping","id":"1",`, "", "", ``, "invalid request"},
		{"trailing garbage", `{"id":"1","method":"ping"} x`, "1", "", ``, "invalid request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, err := DecodeRequest([]byte(c.line))
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				if req.ID != c.wantID || req.Method != c.wantMethod || string(req.Params) != c.wantParams {
					t.Fatalf("got id %q method %q params %q", req.ID, req.Method, req.Params)
				}
				return
			}
			e := AsError(err)
			if err == nil || e.Code != CodeInvalidRequest || !strings.Contains(e.Message, c.wantErr) {
				t.Fatalf("err = %v, want invalid_request mentioning %q", err, c.wantErr)
			}
			if req.ID != c.wantID {
				t.Fatalf("error answers id %q, want %q", req.ID, c.wantID)
			}
		})
	}
}

// benchLines are typical request lines: small ones, and a 64 KiB
// pane.send_text where any extra pass over the line would show.
var benchLines = map[string][]byte{
	"ping":      []byte(`{"id":"1","method":"ping","params":{}}`),
	"pane.read": []byte(`{"id":"cli:pane:read","method":"pane.read","params":{"pane_id":"w1:p2","source":"recent","lines":200,"format":"text"}}`),
	"send_64k":  []byte(`{"id":"7","method":"pane.send_text","params":{"pane_id":"w1:p2","text":"` + strings.Repeat("echo héllo wörld; ", 3641) + `"}}`),
}

func BenchmarkDecodeRequest(b *testing.B) {
	for _, name := range []string{"ping", "pane.read", "send_64k"} {
		line := benchLines[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := DecodeRequest(line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// EncodeSuccess writes the envelope by hand; its bytes must be what
// encoding the Response would give, escapes and all.
func TestEncodeSuccess_SameBytesAsTheResponse(t *testing.T) {
	label := `a <b> & "c" \ é 😀`
	for _, c := range []struct {
		id string
		r  Result
	}{
		{"1", OK{}},
		{`odd "id" <&>`, Pong{Version: "v", Protocol: 20}},
		{"3", WorkspaceInfoResult{Workspace: WorkspaceInfo{WorkspaceID: "w1", Label: label}}},
		{"", PaneList{Panes: []PaneInfo{{PaneID: "w1:p1", Label: &label}}}},
	} {
		got, err := EncodeSuccess(c.id, c.r)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := MarshalResult(c.r)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(Response{ID: c.id, Result: raw})
		if string(got) != string(want) {
			t.Fatalf("EncodeSuccess(%q, %T):\n got %s\nwant %s", c.id, c.r, got, want)
		}
	}
}

func BenchmarkEncodeSuccess_PaneList200(b *testing.B) {
	panes := make([]PaneInfo, 200)
	for i := range panes {
		panes[i] = PaneInfo{PaneID: "w1:p" + strconv.Itoa(i), WorkspaceID: "w1", TabID: "w1:t1", TerminalID: "term_0123456789abcd", AgentStatus: "idle"}
	}
	r := PaneList{Panes: panes}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeSuccess("42", r); err != nil {
			b.Fatal(err)
		}
	}
}

// A result encoded once is sent as the same bytes as one encoded per call.
func TestEncoded_SameBytes(t *testing.T) {
	pong := Pong{Version: Version, Protocol: ProtocolVersion, Capabilities: &ServerCapabilities{LiveHandoff: true}}
	enc, err := Encode(pong)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := EncodeSuccess("a\"1", pong)
	got, _ := EncodeSuccess("a\"1", enc)
	if string(got) != string(want) || enc.ResultType() != "pong" {
		t.Fatalf("encoded once: %s\nper call:     %s", got, want)
	}
}
