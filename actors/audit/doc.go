// Package audit is the policy check of limited connections and the audit
// log (issue 49).
//
// A connection (a socket connection, a web page's) may carry a
// [[policy]] of config.toml: it declares it with connection.policy (herdr
// mcp --policy NAME) or gets it with its web token (herdr web --policy
// NAME), and cannot drop it. Check runs on every call such a connection
// makes, before the call goes anywhere: the method must be one the
// policy allows (a read when it is read-only: protocol.Method.Reads
// classifies the table), on a machine it allows, naming only entities
// (workspace, tab, pane, terminal, agent ids in any form, nested params
// included) that are in a workspace it allows; ViewLocator places them
// in the session's newest published View. A refusal is forbidden, naming
// the policy, and changes nothing.
//
// The calls of a limited or MCP connection are appended to the audit log
// (the Log actor: JSON lines in audit.log beside the server's log,
// rotated past a size with a few files kept), written by one goroutine
// in batches so a connection only sends a message; audit.list reads it.
package audit
