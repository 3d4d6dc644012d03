package web

import (
	"net/http"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/audit"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Limited pages (issue 49): `herdr web --policy NAME` answers a URL whose
// token carries the [[policy]]; the page's every call is checked against
// it (audit.Check) before it goes anywhere, and logged. Such tokens live
// as long as this server (a live handoff carries only the full token).

// handler is the HTTP handler of a listener with l's token, reading the
// policy tokens of this actor.
func (w *Web) handler(token, port string, ctx actor.Context) http.Handler {
	h := newHandler(token, port, !isLoopback(w.addr), ctx.ActorSystem().Root, ctx.Self(), w.opts.Log, w.quit)
	h.limited = &w.limited
	return h
}

// startLimited answers web.start with a policy: the running dashboard's
// URL with a token of that policy (one per policy, minted the first time).
// The dashboard must already run (`herdr web` first).
func (w *Web) startLimited(ctx actor.Context, listen, name string) {
	switch {
	case w.opts.Policies == nil:
		ctx.Respond(kit.Fail(protocol.ParamError("policy", "this server has no policies")))
		return
	case w.srv == nil:
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeWebNotRunning, "the web dashboard is not running; start it with `herdr web` (or [web] listen), then ask for a limited token")))
		return
	case listen != "" && listen != w.addr && listen != w.opts.Listen:
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeWebStartFailed, "the dashboard already listens on %s; restart the server to move it", w.addr)))
		return
	}
	pol, err := w.opts.Policies(name)
	if err != nil {
		ctx.Respond(kit.Fail(protocol.ParamError("policy", "%v", err)))
		return
	}
	old := map[string]struct{}{}
	next := map[string]config.Policy{}
	if m := w.limited.Load(); m != nil {
		for tok, p := range *m {
			if p.Name == name {
				ctx.Respond(kit.Done(protocol.WebStarted{Listen: w.addr, URL: "http://" + w.addr + "/?token=" + tok, Policy: name}))
				return
			}
			next[tok] = p
			old[tok] = struct{}{}
		}
	}
	tok, err := newToken("") // kept in memory only
	if err != nil {
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeWebStartFailed, "%v", err)))
		return
	}
	next[tok] = pol
	w.limited.Store(&next)
	w.opts.Log.Info("web dashboard token minted for a policy", "policy", name)
	ctx.Respond(kit.Done(protocol.WebStarted{Listen: w.addr, URL: "http://" + w.addr + "/?token=" + tok, Policy: name}))
}

// check refuses a page's call its token's policy does not allow (the
// refusal answered and logged) and otherwise starts its audit line.
func (b *browser) check(r *request, m protocol.Method) bool {
	if b.policy == nil || r.internal {
		return false
	}
	if err := audit.Check(b.policy, m, r.params, b.opts.Locate); err != nil {
		b.sendAudit(audit.Entry("web", b.policy.Name, 0, m, r.params, err))
		b.answer(r.id, kit.Fail(err), r.credits)
		return true
	}
	r.audit = audit.Entry("web", b.policy.Name, 0, m, r.params, nil)
	return false
}

// audited sends r's audit line with its answer.
func (b *browser) audited(r *request, reply *kit.Reply) {
	if r == nil || r.audit == nil {
		return
	}
	audit.Outcome(r.audit, reply)
	b.sendAudit(r.audit)
	r.audit = nil
}

func (b *browser) sendAudit(e *protocol.AuditEntry) {
	if b.opts.Audit != nil && b.root != nil {
		b.root.Send(b.opts.Audit, e)
	}
}

// narrowed is r with its lists narrowed to the workspaces the page's
// policy allows (audit.Filter).
func (b *browser) narrowed(r *kit.Reply) *kit.Reply {
	if b.policy == nil || b.policy.Workspaces == nil || r.Err != nil || r.Result == nil {
		return r
	}
	n := *r
	n.Result = audit.Filter(b.policy, b.opts.Locate, r.Result)
	return &n
}
