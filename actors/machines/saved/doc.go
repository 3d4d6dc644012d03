// Package saved keeps the saved ssh machines of `herdr machine` and
// `herdr --machine`: profiles (an opaque id, a label, an ssh target, the
// remote session and binary, an enabled flag) in machines.json in the
// config directory, a private (0600) file that holds no secrets —
// authentication stays with OpenSSH. It also checks targets and labels
// and spells the ssh command line that reaches a machine's herdr, and
// starts it (StartPipe, which bounds the wait on ssh's pipes). SSHAgents
// holds the agent sockets clients lend the server (agent.go), which the
// gateway records and the machines' ssh sessions use. An entry
// of the file that fails its checks is set aside (File.Invalid) and
// written back as it was; the others load. It is plain data and functions: the CLI reads and
// writes the file once per command, and the server's machines actor
// (actors/machines) reads it when it changes.
package saved
