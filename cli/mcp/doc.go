// Package mcp is herdr's Model Context Protocol server (`herdr mcp`): the
// agents that live in herdr's panes call typed tools — list workspaces,
// panes and agents, read a pane, send text or keys, start an agent in a
// new pane or a new worktree workspace, prompt it, wait for its status or
// for output, focus, close, and the task board (create, list, get,
// dispatch, report tasks: tasks.go) — instead of shelling out to the CLI and
// parsing its JSON. It is built on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk) and speaks MCP over stdio.
//
// It is a client of the session's server like any other: every tool call
// dials the socket (Options.Dial), sends one request and closes, so calls
// run side by side and a wait blocks nothing else; the MCP request's
// cancellation closes its connection. Machine-qualified ids
// (build/w1:p2) pass through unchanged: the server forwards them.
//
// Errors are tool errors (isError) whose text is herdr's code and message
// ("agent_not_found: …"); bad arguments are refused against the tool's
// input schema by the SDK; nothing a client sends stops the server.
//
// Resources: herdr://session (the session snapshot) and
// herdr://pane/{pane_id} (a pane's recent text). A subscription to a pane
// holds one events.wait on pane_output_changed at a time, from the
// revision last seen (seen_revision), and sends resources/updated on each
// change; one to the session holds an events.subscribe connection for
// every lifecycle event, made before the subscribe is answered.
//
// The SDK's stdio connection ends at a line it cannot decode; stdio.go
// answers such lines itself (JSON-RPC parse or invalid-request errors:
// not JSON, a key named twice, longer than protocol.MaxLineBytes) so
// they never reach it. The end of stdin means no more requests: every
// request read before it is answered, then Serve returns.
//
// Bounds, so one looping agent cannot take the server's connection
// budget from the person: at most maxCalls connections to the server at
// once (other calls queue), of which tool waits (wait_output, wait_agent,
// a prompt with wait, agent start) hold at most maxWaits (more are
// refused at once with a JSON-RPC busy error, -32000) and resource
// watchers maxWatches (queued); past maxPending requests in flight a new
// one is answered busy. A request the server would refuse as too long
// for one line is refused here naming the limit.
//
// Safety (config.toml [mcp]): Allow limits the tools listed and callable;
// AllowStart and AllowClose switch off the tools that start agents and
// close panes or workspaces; the caller's own pane (HERDR_PANE_ID of the
// `herdr mcp` process, compared by terminal) and its workspace are never
// closed unless AllowCloseCaller.
package mcp
