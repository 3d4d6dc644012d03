package cli

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// auditCmd is `herdr audit [--json]`: the audit log's newest entries.
func (a *app) auditCmd() *cobra.Command {
	var asJSON bool
	var limit int
	var since string
	return jsonFlag(a.auditFlags(&cobra.Command{
		Use:   "audit",
		Short: "Show the audit log: the calls of limited (policy) and MCP connections",
		Long: `Show the audit log's newest entries, oldest first: every call a connection
limited by a [[policy]] (herdr mcp --policy, herdr web --policy) or an MCP
connection made, refusals included, with its time, client, policy, method,
target and outcome (ok, or the error code). A table at a terminal; the JSON
response line with --json or when piped. The log is audit.log in the
session's state folder, rotated past 4 MiB with 3 older files kept.`,
		Example: `  herdr audit
  herdr audit --since 1h --limit 20
  herdr audit --json`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			p := protocol.AuditListParams{Limit: limit}
			if since != "" {
				t, err := auditSince(since, time.Now())
				if err != nil {
					return err
				}
				p.Since = t.Format(time.RFC3339Nano)
			}
			if err := validate(&p); err != nil {
				return err
			}
			return exit(a.request("cli:audit", "audit.list", p, tableFor(a, asJSON, drawAudit)))
		},
	}, &limit, &since), &asJSON)
}

func (a *app) auditFlags(cmd *cobra.Command, limit *int, since *string) *cobra.Command {
	cmd.Flags().IntVar(limit, "limit", 0, fmt.Sprintf("at most this many entries, the newest (1-%d, default %d)", protocol.MaxAuditListLimit, protocol.DefaultAuditListLimit))
	cmd.Flags().StringVar(since, "since", "", "only entries since `WHEN`: a duration back from now (10m, 2h) or an RFC 3339 time")
	return cmd
}

// auditSince reads --since: a duration before now, or a time.
func auditSince(s string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--since %q: expected a duration (10m, 2h) or an RFC 3339 time", s)
}

func drawAudit(w io.Writer, r protocol.AuditList) {
	row(w, "TIME", "CLIENT", "POLICY", "METHOD", "ACCESS", "TARGET", "OUTCOME")
	for _, e := range r.Entries {
		who := e.Client
		if e.PID > 0 {
			who += " (" + strconv.Itoa(e.PID) + ")"
		}
		target := e.Target
		if e.Machine != "" {
			target = e.Machine + ": " + target
		}
		row(w, e.Time.Local().Format("2006-01-02 15:04:05"), who, e.Policy, e.Method, e.Access, target, e.Outcome)
	}
	if r.Dropped > 0 {
		fmt.Fprintf(w, "(%d entries were dropped: the disk did not take them)\n", r.Dropped)
	}
}
