package session

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// TestOp_ParamsOfAnotherType: a handler made of a model operation that
// gets params of another type answers internal_error naming both types,
// before it touches the session (which has no transaction here).
func TestOp_ParamsOfAnotherType(t *testing.T) {
	call := &kit.Call{Method: "pane.resize", Params: &protocol.PaneSwapParams{}}
	r := op((*model.Tx).Resize).run(&Session{}, nil, call)
	if r == nil || r.Err == nil {
		t.Fatalf("answer %+v, want an error", r)
	}
	if e := protocol.AsError(r.Err); e.Code != protocol.CodeInternal || !strings.Contains(e.Message, "*protocol.PaneResizeParams") || !strings.Contains(e.Message, "*protocol.PaneSwapParams") {
		t.Errorf("error %v, want internal_error naming both params types", r.Err)
	}
	call = &kit.Call{Method: "pane.rename", Params: &protocol.PaneTarget{}}
	if r := onPane((*model.Tx).PaneRename).run(&Session{}, nil, call); r == nil || protocol.AsError(r.Err).Code != protocol.CodeInternal {
		t.Errorf("a routed operation with params of another type: %+v", r)
	}
}
