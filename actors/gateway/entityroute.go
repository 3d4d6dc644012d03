package gateway

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/entities"
	"github.com/herdr-go/herdr/actors/kit"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/protocol"
)

// Entity routes: a call the table gives a workspace's or tab's actor goes
// to the entities supervisor directly, with the record the session's
// newest read model holds of its target, as the session would send it; a
// target the read model cannot resolve goes through the session, which
// resolves it and answers its errors.

// sendToEntity sends call to its workspace's or tab's actor when its
// target resolves here, and reports whether it did.
func (c *conn) sendToEntity(ctx actor.Context, m protocol.Method, call *kit.Call) bool {
	f, ok := c.opts.Reads.(kit.PaneFinder)
	if !ok || c.opts.Entities == nil || protocol.ToMachines(call.Params) ||
		m.Gate != "" && (c.opts.GateOpen == nil || !c.opts.GateOpen(m.Gate)) {
		return false
	}
	var msg *entities.Deliver
	switch {
	case m.Owner == protocol.OwnerWorkspace && m.Target == protocol.TargetWorkspace:
		info, cwd, ok := f.Workspace(call)
		if !ok {
			return false
		}
		msg = &entities.Deliver{ID: info.WorkspaceID, Msg: &wsactor.Request{Call: call, Info: info, Cwd: cwd}}
	case m.Owner == protocol.OwnerTab && m.Target == protocol.TargetTab:
		info, ok := f.Tab(call)
		if !ok {
			return false
		}
		msg = &entities.Deliver{ID: info.TabID, Msg: &tabactor.Request{Call: call, Info: info}}
	default:
		return false
	}
	c.calls.SendCarried(ctx, c.opts.Entities, call, msg, kit.Deadline(call.Params, c.opts.CallDeadline))
	return true
}
