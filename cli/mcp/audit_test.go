package mcp

import (
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
)

// list_audit reaches audit.list with its limit and since, and answers the
// entries; a bad since comes back as herdr's refusal.
func TestTools_ListAuditCallsTheMethod(t *testing.T) {
	var got protocol.AuditListParams
	f := &fakeHerdr{handle: func(method string, params json.RawMessage) (any, error) {
		if method != "audit.list" {
			return nil, protocol.Errorf(protocol.CodeInternal, "unexpected %s", method)
		}
		if err := protocol.Unmarshal(params, &got); err != nil {
			return nil, err
		}
		if err := got.Validate(); err != nil {
			return nil, err
		}
		return protocol.AuditList{Entries: []protocol.AuditEntry{{Method: "pane.send_text", Outcome: "forbidden"}}}, nil
	}}
	cs := connect(t, f, Options{}, nil)
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "list_audit", Arguments: map[string]any{"limit": 5, "since": "2026-01-02T15:04:05Z"}})
	if err != nil || res.IsError {
		t.Fatalf("list_audit: %v %q", err, text(res))
	}
	if got.Limit != 5 || got.Since != "2026-01-02T15:04:05Z" {
		t.Fatalf("audit.list got %+v", got)
	}
	var out protocol.AuditList
	raw, _ := json.Marshal(res.StructuredContent)
	if err := protocol.Unmarshal(raw, &out); err != nil || len(out.Entries) != 1 || out.Entries[0].Outcome != "forbidden" {
		t.Fatalf("answer %s: %v", raw, err)
	}
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "list_audit", Arguments: map[string]any{"since": "yesterday"}})
	if err != nil || !res.IsError {
		t.Fatalf("a bad since: %v %q", err, text(res))
	}
}
