// Package cli is the herdr command line: `herdr server` runs the server in
// the foreground, `herdr status` reports on client and server, and the noun
// commands (`workspace`, `tab`, `pane`, `layout`, `api`) are thin wrappers that send one
// request over the API socket and print the answer. A verb whose method's
// table entry names its command path (protocol.Method.CLI) is built from
// the entry and its params' cli/help tags (fromtable.go), a list's table,
// silence or a check before the request from its verbStyle (tables.go);
// the hand-written ones are where Herdr's CLI differs from the params in a
// way the builder does not know (docs/cli.md says how, for each).
// TestHelpGolden holds every command's help, byte for byte
// (testdata/help.golden).
//
// Every socket command connects to the socket of the selected session, sends
// `ping` to check the protocol number, then sends its request on the same
// connection; a read (a list, a get) goes in the same write as its ping,
// one round trip, and a change only once the ping has answered
// (the entry's Pipeline; pipeline.go). Success responses go to stdout as the raw JSON line (exit 0),
// error responses to stderr (exit 1); usage errors exit 2, with a "did you
// mean" for a mistyped command, subcommand or option (suggest.go). The hook
// reports and pane send-text/send-keys/run are silent on success, as in
// Herdr. Every list command draws a table instead when stdout is a
// terminal; piped or with --json it prints the response line, the local
// lists (machine, plugin without a server) as a server would, session list
// Herdr's {"sessions":[…]} (tables.go). With
// `--machine LABEL` the connection is ssh to that saved machine's
// `herdr remote-client-bridge` instead (machine_connect.go; the profiles
// are package machines), and `herdr machine` manages the profiles.
//
// `herdr completion bash|zsh|fish|powershell` prints a shell's completion
// script; the arguments and flags that name a workspace, tab, pane, agent
// or plugin complete with the live ids of the running server, asked with a
// short deadline, and with nothing when no server answers (complete_live.go).
//
// Main is the only entry point; it builds a fresh command tree for each call,
// so it can run in-process in tests with its own arguments, streams and
// environment. The tree is what the call needs: the noun the command line
// names (chosenNoun) and, under it, the verb it names, the table's
// (chosenVerb) or a hand-written one (addVerbs, verbs.go); `--version` is
// answered before any is built. A call is one process's start, so what
// every start pays is kept small: no package-level tables built at
// initialisation (switches, or built when first asked), and no package
// linked for one rare verb (a small SHA-256 for the plugin folder's name,
// the PNG size read from its header).
package cli
