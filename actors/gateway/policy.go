package gateway

import (
	"errors"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/audit"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// A connection's policy (issue 49). connection.policy limits it to a
// [[policy]] for good; every call after, pipelined ones included, is
// checked (audit.Check) before it is answered or sent anywhere, and the
// calls of a limited or named ("mcp") connection go to the audit log.

// errRefused marks a call checkCall refused (and answered).
var errRefused = errors.New("refused by the connection's policy")

// limits are a connection's policy and audit state.
type limits struct {
	policy *config.Policy // nil: unlimited
	client string         // the name it gave ("mcp"); "" and no policy: not audited
	// entry is the current request's audit line, sent with its answer.
	entry   *protocol.AuditEntry
	entryID string
}

// audited reports whether the connection's calls go to the audit log.
func (l *limits) audited() bool { return l.policy != nil || l.client != "" }

func (l *limits) clientName() string {
	if l.client == "" {
		return "socket"
	}
	return l.client
}

func (l *limits) policyName() string {
	if l.policy == nil {
		return ""
	}
	return l.policy.Name
}

// checkMethod refuses a method the connection's policy does not allow,
// before its params are decoded. It answers and reports whether it did.
func (c *conn) checkMethod(req *protocol.Request, m protocol.Method) bool {
	if c.lim.policy == nil {
		return false
	}
	if err := audit.CheckMethod(c.lim.policy, m); err != nil {
		params, _ := protocol.DecodeRouted(req.Method, req.Params) // for the audit line's target only
		c.refuse(req, m, params, err)
		return true
	}
	return false
}

// checkCall refuses a call the policy does not allow (its targets placed
// in the session's newest View), and otherwise starts its audit line.
func (c *conn) checkCall(req *protocol.Request, m protocol.Method, params protocol.Params) bool {
	if c.lim.policy != nil {
		if err := audit.Check(c.lim.policy, m, params, c.opts.Locate); err != nil {
			c.refuse(req, m, params, err)
			return true
		}
	}
	if c.lim.audited() && m.Name != "connection.policy" && m.Name != "ping" {
		c.lim.entry, c.lim.entryID = audit.Entry(c.lim.clientName(), c.lim.policyName(), c.peerPID, m, params, nil), req.ID
	}
	return false
}

// refuse answers a refused call and logs it.
func (c *conn) refuse(req *protocol.Request, m protocol.Method, params protocol.Params, err error) {
	c.sendAudit(audit.Entry(c.lim.clientName(), c.lim.policyName(), c.peerPID, m, params, err))
	c.reply(req.ID, kit.Fail(err))
}

// narrowed is r with its lists narrowed to the workspaces the
// connection's policy allows (audit.Filter).
func (c *conn) narrowed(r *kit.Reply) *kit.Reply {
	if c.lim.policy == nil || c.lim.policy.Workspaces == nil || r.Err != nil || r.Result == nil {
		return r
	}
	n := *r
	n.Result = audit.Filter(c.lim.policy, c.opts.Locate, r.Result)
	return &n
}

// auditAnswer sends the current request's audit line with its answer r.
func (c *conn) auditAnswer(id string, r *kit.Reply) {
	if c.lim.entry == nil || c.lim.entryID != id {
		return
	}
	e := c.lim.entry
	c.lim.entry = nil
	audit.Outcome(e, r)
	c.sendAudit(e)
}

func (c *conn) sendAudit(e *protocol.AuditEntry) {
	if c.opts.Audit != nil && c.root != nil {
		c.root.Send(c.opts.Audit, e)
	}
}

// connectionPolicy is connection.policy: a policy once taken is kept (a
// second call may name the same one, never another or none), and a
// client's name once given is kept.
func (c *conn) connectionPolicy(_ actor.Context, req *protocol.Request, params protocol.Params) {
	p := params.(*protocol.ConnectionPolicyParams)
	if p.Client != "" && c.lim.client != "" && p.Client != c.lim.client {
		c.reply(req.ID, kit.Fail(protocol.Errorf(protocol.CodeForbidden, "this connection is %s and cannot become %s", c.lim.client, p.Client)))
		return
	}
	if p.Policy != "" {
		switch {
		case c.lim.policy != nil && c.lim.policy.Name != p.Policy:
			c.reply(req.ID, kit.Fail(protocol.Errorf(protocol.CodeForbidden, "policy %s: this connection is limited by it and cannot take another (%s)", c.lim.policy.Name, p.Policy)))
			return
		case c.lim.policy == nil:
			if c.opts.Policies == nil {
				c.reply(req.ID, kit.Fail(protocol.ParamError("policy", "this server has no policies")))
				return
			}
			pol, err := c.opts.Policies(p.Policy)
			if err != nil {
				c.reply(req.ID, kit.Fail(protocol.ParamError("policy", "%v", err)))
				return
			}
			c.lim.policy = &pol
		}
	}
	if p.Client != "" {
		c.lim.client = p.Client
	}
	out := protocol.ConnectionPolicy{Client: c.lim.client}
	if pol := c.lim.policy; pol != nil {
		out.Policy, out.ReadOnly, out.Methods, out.Workspaces, out.Machines = pol.Name, pol.ReadOnly, pol.Methods, pol.Workspaces, pol.Machines
	}
	c.reply(req.ID, kit.Done(out))
}
