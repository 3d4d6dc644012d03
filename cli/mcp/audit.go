package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
)

// The audit log's tool (issue 49): a coordinating agent, or a person
// asking one, reads what limited and MCP connections did (audit.list).

func (h *herdr) auditTools() []tool {
	return []tool{
		define("list_audit", "The audit log of calls made through limited (policy) and MCP connections, oldest first: time, client, policy, method, targets, outcome (ok or the error code). limit: the newest N (default 100); since: an RFC 3339 time.",
			readOnly, schemaHints{}, h.listAudit),
	}
}

type auditIn struct {
	Limit int    `json:"limit,omitempty" jsonschema:"the newest entries to return (default 100)"`
	Since string `json:"since,omitempty" jsonschema:"only entries at or after this RFC 3339 time"`
}

func (h *herdr) listAudit(ctx context.Context, _ *sdk.CallToolRequest, in auditIn) (protocol.AuditList, error) {
	var r protocol.AuditList
	return r, h.call(ctx, "audit.list", protocol.AuditListParams{Limit: in.Limit, Since: in.Since}, &r)
}
