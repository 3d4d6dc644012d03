package mcp

import (
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
)

// review_comment reaches review.comment with the subject, file, line and
// text it was given (the embedded subject's fields flattened into its
// schema), and a refusal comes back with herdr's code.
func TestTools_ReviewCommentCallsTheMethod(t *testing.T) {
	var got protocol.ReviewCommentParams
	f := &fakeHerdr{handle: func(method string, params json.RawMessage) (any, error) {
		if method != "review.comment" {
			return nil, protocol.Errorf(protocol.CodeInternal, "unexpected %s", method)
		}
		if err := protocol.Unmarshal(params, &got); err != nil {
			return nil, err
		}
		if got.File == "gone.go" {
			return nil, protocol.Errorf(protocol.CodeNotInDiff, "gone.go is not among the files")
		}
		return protocol.ReviewCommentResult{Comment: protocol.ReviewComment{ID: 1, File: got.File, Line: got.Line, Status: "pending"}}, nil
	}}
	cs := connect(t, f, Options{}, nil)
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "review_comment", Arguments: map[string]any{"task_id": "task-4", "file": "a.go", "line": 7, "text": "why?"}})
	if err != nil || res.IsError {
		t.Fatalf("review_comment: %v %q", err, text(res))
	}
	if got.TaskID != "task-4" || got.File != "a.go" || got.Line != 7 || got.Text != "why?" {
		t.Fatalf("review.comment got %+v", got)
	}
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "review_comment", Arguments: map[string]any{"workspace_id": "w2", "file": "gone.go", "line": 1, "text": "x"}})
	if err != nil || !res.IsError || text(res) != "not_in_diff: gone.go is not among the files" {
		t.Fatalf("refused comment: %v %q", err, text(res))
	}
}
