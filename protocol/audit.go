package protocol

import (
	"time"
)

// Policies and the audit log (issue 49): a connection may declare a
// [[policy]] of config.toml (connection.policy), which limits every call
// it makes after; the calls of a limited or MCP connection are appended
// to the audit log, which audit.list reads.

// CodeForbidden: a connection's policy refuses the call (the message
// names the policy and why). Nothing was changed.
const CodeForbidden = "forbidden"

// Access is whether a method changes anything.
type Access uint8

const (
	// AccessDerived (the zero value): derived from the entry (Reads).
	AccessDerived Access = iota
	// AccessRead: the method changes nothing.
	AccessRead
	// AccessWrite: the method may change something.
	AccessWrite
)

// Reads reports whether the method changes nothing, and whether the
// table says so (classified). An explicit Access wins; a Pipeline method
// changes nothing (that is what Pipeline promises); any other one-answer
// method is a write. A wait, watch or stream without an Access is left
// unclassified — it may write (agent.prompt waits) — and counts as a
// write, which TestMethods_EveryMethodIsClassified refuses.
func (m Method) Reads() (reads, classified bool) {
	switch {
	case m.Access == AccessRead:
		return true, true
	case m.Access == AccessWrite:
		return false, true
	case m.Pipeline:
		return true, true
	case m.Shape == ShapeAnswer || m.Shape == ShapeFrames:
		return false, true
	}
	return false, false
}

var auditMethods = []Method{
	{Name: "connection.policy", Access: AccessRead, Extension: true, Params: func() Params { return &ConnectionPolicyParams{} }, Answer: ConnectionPolicy{},
		Summary: "Limit this connection to a [[policy]] of config.toml, for good (extension)", Owner: OwnerGateway, Shape: ShapeAnswer},
	{Name: "audit.list", Access: AccessRead, Extension: true, Params: func() Params { return &AuditListParams{} }, Answer: AuditList{},
		Summary: "The audit log's newest entries: calls of limited and MCP connections (extension)", Owner: OwnerAudit, Shape: ShapeAnswer},
}

// ConnectionPolicyParams are the params of connection.policy. Policy
// names a [[policy]]; Client names what connects ("mcp", "web"), for the
// audit log. A connection that declared a policy cannot drop or change
// it; one that named a client is audited from then on.
type ConnectionPolicyParams struct {
	Policy string `json:"policy,omitempty"`
	Client string `json:"client,omitempty"`
}

// MaxClientName bounds connection.policy's client.
const MaxClientName = 64

// Validate implements Params.
func (p *ConnectionPolicyParams) Validate() error {
	if p.Policy == "" && p.Client == "" {
		return ParamError("policy", "name a policy or a client")
	}
	if len(p.Client) > MaxClientName || len(p.Policy) > MaxClientName {
		return ParamError("policy", "names are at most %d bytes", MaxClientName)
	}
	return nil
}

// ConnectionPolicy answers connection.policy: the limits the connection
// now has (Policy "" when it has none, only a client name).
type ConnectionPolicy struct {
	Policy     string   `json:"policy,omitempty"`
	Client     string   `json:"client,omitempty"`
	ReadOnly   bool     `json:"read_only,omitempty"`
	Methods    []string `json:"methods,omitempty"`
	Workspaces []string `json:"workspaces,omitempty"`
	Machines   []string `json:"machines,omitempty"`
}

// ResultType implements Result.
func (ConnectionPolicy) ResultType() string { return "connection_policy" }

// Audit list bounds.
const (
	DefaultAuditListLimit = 100
	MaxAuditListLimit     = 10000
)

// AuditListParams are the params of audit.list: the newest Limit entries
// (default 100), only those at or after Since (RFC 3339) when given.
type AuditListParams struct {
	Limit int    `json:"limit,omitempty"`
	Since string `json:"since,omitempty"`
}

// Validate implements Params.
func (p *AuditListParams) Validate() error {
	if p.Limit < 0 || p.Limit > MaxAuditListLimit {
		return ParamError("limit", "must be 1-%d", MaxAuditListLimit)
	}
	if p.Since != "" {
		if _, err := time.Parse(time.RFC3339Nano, p.Since); err != nil {
			return ParamError("since", "expected an RFC 3339 time (2026-01-02T15:04:05Z), got %q", p.Since)
		}
	}
	return nil
}

// SinceTime is Since parsed (zero when not given).
func (p *AuditListParams) SinceTime() time.Time {
	t, _ := time.Parse(time.RFC3339Nano, p.Since)
	return t
}

// AuditEntry is one line of the audit log: one call of a limited or MCP
// connection. Outcome is "ok" or the answer's error code.
type AuditEntry struct {
	Time    time.Time `json:"time"`
	Client  string    `json:"client,omitempty"` // "mcp", "web", or "socket"
	Policy  string    `json:"policy,omitempty"`
	PID     int       `json:"pid,omitempty"` // the process at the other end, when known
	Method  string    `json:"method"`
	Access  string    `json:"access"` // "read" or "write"
	Target  string    `json:"target,omitempty"`
	Machine string    `json:"machine,omitempty"`
	Outcome string    `json:"outcome"`
	Error   string    `json:"error,omitempty"` // the refusal's message, for forbidden
}

// AuditList answers audit.list, oldest first. Dropped counts entries the
// log lost since the server started (its disk would not take them).
type AuditList struct {
	Entries []AuditEntry `json:"entries"`
	Dropped int64        `json:"dropped,omitempty"`
}

// ResultType implements Result.
func (AuditList) ResultType() string { return "audit_list" }
