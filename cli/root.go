package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// pingTimeout bounds the ping that opens every socket command. The request
// that follows has no deadline: pane.wait_for_output may legitimately block.
var pingTimeout = 5 * time.Second

// app is the state one Main call shares with its commands.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	env    protocol.Env
	getwd  func() (string, error)

	// session is the value of the persistent --session flag.
	session string
	// sessionFlag is the flag itself, to tell "--session ''" from no flag.
	sessionFlag func() bool
	// noSession is --no-session: the server runs in this process and ends
	// with the client.
	noSession bool
	// remoteTarget is --remote: attach to a server on that ssh host.
	remoteTarget string
	// remoteKeys is --remote-keybindings (Herdr's): which side's
	// keybindings a remote attach uses. Only local is: our client reads
	// the keys itself (remote.go).
	remoteKeys string
	// machine is --machine: talk to that saved machine's server
	// (machine_connect.go).
	machine string
	// machineFlag tells "--machine ''" from no flag.
	machineFlag func() bool
	// args is the command line as given, for handing it to herdr-full;
	// rt is what herdr-full links (nil in the front: runtime.go).
	args []string
	rt   *Runtime
	// verb is the word after the chosen noun while rootCmd builds that
	// noun: addVerbs builds only the hand-written verb it names (verbs.go).
	verb string
}

// exitCode ends a command with a status after it has printed its own output.
// Any other error a command returns is a usage error (exit 2).
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// exit turns a status into the error RunE returns.
func exit(code int) error {
	if code == 0 {
		return nil
	}
	return exitCode(code)
}

// validate runs the server's own check of params (protocol's Validate)
// before any socket use: what the server would refuse as malformed is a
// usage error here (exit 2, one line on stderr), as in Herdr, whose parser
// refuses it before connecting.
func validate(p protocol.Params) error {
	err := p.Validate()
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return errors.New(pe.Message)
	}
	return err
}

// Main runs the herdr command line with args (without the program name) and
// returns the process exit status: 0 success, 1 runtime or API error, 2 usage.
// rt is what herdr-full links; the front passes nil (runtime.go).
func Main(rt *Runtime, args []string, stdin io.Reader, stdout, stderr io.Writer, env func(string) string) int {
	if args == nil {
		args = []string{} // cobra reads os.Args when given nil
	}
	if onlyVersion(args) {
		if _, err := io.WriteString(stdout, versionLine()); err != nil {
			fmt.Fprintf(stderr, "herdr: %v\n", err)
			return 1
		}
		return 0
	}
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, env: env, getwd: os.Getwd, args: args, rt: rt}
	root := a.rootCmd(args)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	if err == nil {
		return 0
	}
	var code exitCode
	if errors.As(err, &code) {
		return int(code)
	}
	path := "herdr"
	if cmd != nil {
		path = cmd.CommandPath()
	}
	fmt.Fprintf(stderr, "%s (see '%s --help')\n", usageMessage(err), path)
	return 2
}

// versionLine is what --version prints: the Herdr version whose wire this
// speaks first (what scripts that read `herdr --version` compare), then
// this program's own build.
func versionLine() string {
	return "herdr " + protocol.Version + " (" + protocol.Build() + ")\n"
}

// onlyVersion says whether args ask for the version and nothing else:
// --version or -V, perhaps with --session NAME. Main answers those before
// building the root, whose version template is a text/template that cobra
// parses and runs at each call (a third of `herdr --version`'s time in
// main); any other spelling goes through cobra, which prints the same.
func onlyVersion(args []string) bool {
	version := false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--version" || a == "-V":
			version = true
		case a == "--session" && i+1 < len(args):
			i++ // its value, whatever it is (cobra's reading too)
		case strings.HasPrefix(a, "--session=") && a != "--session=":
		default:
			return false
		}
	}
	return version
}

// usageMessage words a usage error as Herdr does: "unknown command: X",
// "unknown option: X", else the parser's message on one line.
func usageMessage(err error) string {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "unknown command "):
		var word string
		if _, err := fmt.Sscanf(msg, "unknown command %q", &word); err == nil {
			return "unknown command: " + word + suggested(msg)
		}
	case strings.HasPrefix(msg, "unknown flag: "):
		return "unknown option: " + strings.TrimPrefix(msg, "unknown flag: ")
	case strings.HasPrefix(msg, "unknown shorthand flag: "):
		if i := strings.LastIndex(msg, " in "); i > 0 {
			return "unknown option: " + msg[i+4:]
		}
	case strings.HasPrefix(msg, "if any flags in the group ") && strings.HasSuffix(msg, " were all set"):
		// cobra: "if any flags in the group [toggle on off] are set none
		// of the others can be; [off on] were all set"
		i, j := strings.LastIndex(msg, "; ["), strings.LastIndex(msg, "] were all set")
		if i > 0 && j > i {
			names := strings.Fields(msg[i+3 : j])
			for k := range names {
				names[k] = "--" + names[k]
			}
			return "herdr: " + strings.Join(names, " and ") + " cannot be used together"
		}
	}
	return "herdr: " + oneLine(msg)
}

// oneLine folds a multi-line cobra message (suggestions) onto one line.
func oneLine(s string) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// noun is one top-level command: its name and aliases, and how to build it.
type noun struct {
	names []string
	build func() *cobra.Command
}

// nouns lists every top-level command but config and completion (which
// the root always has). The files: cli/server.go, status.go, api.go, …
func (a *app) nouns() []noun {
	return []noun{
		{[]string{"server"}, a.serverCmd}, {[]string{"status"}, a.statusCmd}, {[]string{"api"}, a.apiCmd},
		{[]string{"workspace", "ws"}, a.workspaceCmd}, {[]string{"tab"}, a.tabCmd}, {[]string{"pane"}, a.paneCmd},
		{[]string{"layout"}, a.layoutCmd}, {[]string{"events"}, a.eventsCmd}, {[]string{"wait"}, a.waitCmd},
		{[]string{"agent"}, a.agentCmd}, {[]string{"notification"}, a.notificationCmd}, {[]string{"session"}, a.sessionCmd},
		{[]string{"worktree"}, a.worktreeCmd}, {[]string{"plugin"}, a.pluginCmd}, {[]string{"integration"}, a.integrationCmd},
		{[]string{"channel"}, a.channelCmd}, {[]string{"web"}, a.webCmd}, {[]string{"terminal"}, a.terminalCmd},
		{[]string{"remote-client-bridge"}, a.bridgeCmd}, {[]string{"update"}, a.updateCmd},
		{[]string{"machine"}, a.machineCmd}, {[]string{"mcp"}, a.mcpCmd}, {[]string{"task"}, a.taskCmd},
		{[]string{"buffer"}, a.bufferCmd}, {[]string{"fleet"}, a.fleetCmd},
		{[]string{"inbox"}, a.inboxCmd},
		{[]string{"audit"}, a.auditCmd},
		{[]string{"review"}, a.reviewCmd},
	}
}

// chosenNoun tells which top-level command args run, so that only that
// one is built: the whole tree is some 200 commands with their flags,
// which cost more than the socket call of a one-shot `herdr pane list`.
// It answers ok with a nil noun when args name no command (attach,
// --version), and !ok whenever the whole tree may be needed: help, an
// unknown word (suggestions), completion, an option it does not know.
func (a *app) chosenNoun(args []string) (n *noun, ok bool) {
	for i := 0; i < len(args); i++ {
		switch s := args[i]; {
		case s == "--session", s == "--machine":
			i++
		case strings.HasPrefix(s, "--session="), strings.HasPrefix(s, "--machine="), s == "-V", s == "--version", s == "--default-config", s == "--skill":
		case strings.HasPrefix(s, "-"):
			return nil, false
		default:
			for _, n := range a.nouns() {
				if slices.Contains(n.names, s) {
					return &n, true
				}
			}
			return nil, false
		}
	}
	return nil, true
}

// chosenVerb is the word after the chosen noun in args when it names one
// of noun's verbs, its own or the table's: only the table's verbs under
// that word are built (a noun's forty verbs, each with its flags, cost as
// much as the process's start). "" when any may be needed: no verb, a
// flag before it (help), a word to suggest for.
func chosenVerb(args []string, noun *cobra.Command) string {
	s := verbWord(args)
	if s == "" || subcommand(noun, s) != nil {
		return s
	}
	for m := range protocol.EntryRefs {
		if first, second := cliWords(m.CLI); first == noun.Name() && second == s {
			return s
		}
	}
	return ""
}

// rootCmd builds the command tree args need (see chosenNoun).
func (a *app) rootCmd(args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "herdr",
		Short: "Terminal multiplexer for AI coding agents",
		Long: `herdr is a terminal multiplexer for AI coding agents. A server owns the
terminals; programs drive it with newline-delimited JSON over a Unix socket,
and these commands are thin wrappers over that socket API.

Socket commands print the server's JSON response line on stdout (exit 0),
an error response on stderr (exit 1); the hook reports and pane
send-text/send-keys/run print nothing on success. Usage errors exit 2. Every
list command (workspace, tab, pane, agent, session, task, plugin, worktree,
machine) draws a table when stdout is a terminal; --json or a pipe gives the
JSON response line, {"id":…,"result":{"type":…,…}}, local lists included.`,
		Version:       protocol.Version,
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkRemoteKeys(a.remoteKeys, cmd.Flags().Changed("remote-keybindings"), cmd.Flags().Changed("remote")); err != nil {
				return err
			}
			if cmd.Flags().Changed("remote") {
				if a.remoteTarget == "" || a.noSession {
					return fmt.Errorf("--remote needs an ssh TARGET and cannot be combined with --no-session")
				}
				if err := a.checkRemote(a.remoteTarget); err != nil {
					return err
				}
				return exit(a.remote(a.remoteTarget))
			}
			if a.usingMachine() {
				return exit(a.attachMachine())
			}
			return exit(a.attach())
		},
	}
	// The Herdr version whose wire this speaks first (what scripts that
	// read `herdr --version` compare), then this program's own build.
	root.SetVersionTemplate(strings.ReplaceAll(versionLine(), "{{", `{{"{{"}}`))
	root.Flags().BoolP("version", "V", false, "print the version and exit")
	root.Flags().StringVar(&a.remoteTarget, "remote", "", "attach to the herdr server on ssh host `TARGET` (its session with --session); the far side runs $HERDR_REMOTE_BINARY (default herdr); local keybindings apply")
	root.Flags().StringVar(&a.remoteKeys, "remote-keybindings", "local", "with --remote, whose keybindings apply: `local|server` (local, this machine's config.toml, is the one supported)")
	root.Flags().BoolVar(&a.noSession, "no-session", false, "run the server inside this client for its lifetime: nothing is restored or saved, and detaching (or quitting) ends it with its panes")
	root.PersistentFlags().StringVar(&a.session, "session", "", "talk to the server of session `NAME` (default: $HERDR_SOCKET_PATH, then $HERDR_SESSION, then the default session)")
	a.sessionFlag = func() bool { return root.PersistentFlags().Changed("session") }
	root.PersistentFlags().StringVar(&a.machine, "machine", "", "talk to the server of saved machine `LABEL-OR-ID` over ssh (herdr machine add)")
	a.machineFlag = func() bool { return root.PersistentFlags().Changed("machine") }
	root.SetFlagErrorFunc(flagError)

	root.AddCommand(a.configCmd(root)) // also the root's --default-config and --skill, cli/config.go
	if n, ok := a.chosenNoun(args); ok {
		// Not reachable from these args (`completion` picks the whole
		// tree): cobra would build it at every Execute.
		root.CompletionOptions.DisableDefaultCmd = true
		if n != nil {
			a.verb = verbWord(args)
			nc := n.build()
			root.AddCommand(nc)
			a.addTableCmds(root, chosenVerb(args, nc)) // the table's verbs, cli/fromtable.go
			a.verb = ""
		}
		suggestSubcommands(root)
		return root
	}
	for _, n := range a.nouns() {
		root.AddCommand(n.build())
	}
	a.addTableCmds(root, "")  // the table's verbs, cli/fromtable.go
	a.addLiveCompletion(root) // live ids for the shell's completion, cli/complete_live.go
	root.SetOut(a.stdout)     // the completion command takes its writer now
	root.SetErr(a.stderr)
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Aliases = append(c.Aliases, "completions") // Herdr accepts both
		}
	}
	suggestSubcommands(root)
	return root
}

// suggestSubcommands gives every command that runs on its own and also has
// subcommands (`herdr server`, `herdr server stop`) the group's "did you
// mean": cobra checks such a command's own Args first, so `server stopp`
// would be refused as a bare extra argument with no suggestion.
func suggestSubcommands(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		suggestSubcommands(c)
	}
	own := cmd.Args
	if !cmd.HasAvailableSubCommands() || own == nil {
		return
	}
	cmd.Args = func(c *cobra.Command, args []string) error {
		err := own(c, args)
		if err != nil && len(args) > 0 {
			if near := nearCommand(c, args[0]); len(near) > 0 {
				return fmt.Errorf("unknown command %q for %q%s", args[0], c.CommandPath(), didYouMean(near))
			}
		}
		return err
	}
}

// group makes cmd a command group: bare, it prints its help on stderr and
// exits 2; `help` prints it on stdout; anything else is an unknown command.
func (a *app) group(cmd *cobra.Command) *cobra.Command {
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			if args[0] == "help" {
				return cmd.Help()
			}
			return fmt.Errorf("unknown command %q for %q%s", args[0], cmd.CommandPath(), didYouMean(nearCommand(cmd, args[0])))
		}
		cmd.SetOut(a.stderr)
		_ = cmd.Help()
		return exitCode(2)
	}
	return cmd
}

// summary is the method table's one-line help for method.
func summary(method string) string {
	if s, ok := protocol.Summary(method); ok {
		return s
	}
	return method
}

// exactArgs accepts exactly the named positional arguments.
func exactArgs(names ...string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) < len(names) {
			return fmt.Errorf("missing argument %s", names[len(args)])
		}
		if len(args) > len(names) {
			return fmt.Errorf("unexpected argument %q", args[len(names)])
		}
		return nil
	}
}

// minArgs requires the named positional arguments and accepts more.
func minArgs(names ...string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) < len(names) {
			return fmt.Errorf("missing argument %s", names[len(args)])
		}
		return nil
	}
}

// --- socket plumbing -------------------------------------------------------

// socket resolves the API socket of the selected session.
func (a *app) socket() (string, error) {
	if a.usingMachine() {
		return "", protocol.Errorf(protocol.CodeNotSupported, "%v", errMachineLocal)
	}
	if a.sessionFlag != nil && a.sessionFlag() && a.session == "" {
		return "", protocol.Errorf(protocol.CodeInvalidSessionName, "invalid session name \"\": use 1-64 of A-Z a-z 0-9 . _ -")
	}
	return protocol.ResolveSocket(a.env, a.session)
}

// sessionName names the selected session for messages, "" for the default.
func (a *app) sessionName() string {
	name := a.session
	if name == "" && a.env("HERDR_SOCKET_PATH") == "" {
		name = a.env("HERDR_SESSION")
	}
	if name == protocol.DefaultSession {
		return ""
	}
	return name
}

// herdrCmd spells a herdr command line for the selected session.
func (a *app) herdrCmd(rest string) string {
	s := "herdr"
	if name := a.sessionName(); name != "" {
		s += " --session " + name
	}
	if rest != "" {
		s += " " + rest
	}
	return s
}

// fail prints err as an error response line with id on stderr and returns 1.
func (a *app) fail(id string, err error) int {
	fmt.Fprintf(a.stderr, "%s\n", protocol.EncodeError(id, err))
	return 1
}

// onSuccess handles a success response; it returns the exit status.
type onSuccess func(line []byte, resp protocol.Response) int

// call sends one request and prints the response line: stdout on success.
func (a *app) call(id, method string, params any) int {
	return a.request(id, method, params, a.printLine)
}

// silent sends one request and prints nothing on success.
func (a *app) silent(id, method string, params any) int {
	return a.request(id, method, params, nil)
}

func (a *app) printLine(line []byte, _ protocol.Response) int {
	fmt.Fprintf(a.stdout, "%s\n", line)
	return 0
}

// request is the one place socket commands get their exit status: resolve
// the socket, connect, ping and check the protocol, send the request, then
// print an error response on stderr (1) or hand a success to ok (nil: silent).
func (a *app) request(id, method string, params any, ok onSuccess) int {
	if readsOnly(method) && !a.usingMachine() {
		return a.pipelined(id, method, params, ok)
	}
	c, sock, code := a.connect(id)
	if c == nil {
		return code
	}
	defer c.Close()
	line, resp, err := roundTrip(c, id, method, params)
	if err != nil {
		return a.fail(id, lostConnection(sock, err))
	}
	return a.answered(line, resp, ok)
}

// answered prints an error response on stderr (1) or hands a success to
// ok (nil: silent).
func (a *app) answered(line []byte, resp protocol.Response, ok onSuccess) int {
	if resp.Error != nil {
		fmt.Fprintf(a.stderr, "%s\n", line)
		return 1
	}
	if ok == nil {
		return 0
	}
	return ok(line, resp)
}

// connect resolves the socket, dials it and checks the server's protocol
// with a ping; on failure it has printed the error and returns a nil client.
func (a *app) connect(id string) (*protocol.Client, string, int) {
	if a.usingMachine() {
		return a.connectMachine(id)
	}
	sock, err := a.socket()
	if err != nil {
		return nil, "", a.fail(id, err)
	}
	c, code := a.dial(id, sock)
	if c == nil {
		return nil, sock, code
	}
	if code := a.checkProtocol(c, id, sock); code != 0 {
		c.Close()
		return nil, sock, code
	}
	return c, sock, 0
}

// checkProtocol pings and refuses a server of another protocol.
func (a *app) checkProtocol(c *protocol.Client, id, sock string) int {
	_ = c.Conn().SetDeadline(time.Now().Add(pingTimeout))
	line, resp, err := roundTrip(c, id, "ping", nil)
	return a.checkPong(c, id, sock, line, resp, err)
}

// checkPong refuses a ping answer (or its failure, err) from a server of
// another protocol, and lifts the ping's deadline otherwise.
func (a *app) checkPong(c *protocol.Client, id, sock string, line []byte, resp protocol.Response, err error) int {
	if err != nil {
		return a.fail(id, lostConnection(sock, err))
	}
	if resp.Error != nil {
		fmt.Fprintf(a.stderr, "%s\n", line)
		return 1
	}
	// Only what the check reads: decoding the whole Pong (its capabilities)
	// built json's decoders for types a call never looks at again.
	var pong struct {
		Version  string `json:"version"`
		Protocol int    `json:"protocol"`
	}
	if err := protocol.Unmarshal(resp.Result, &pong); err != nil {
		return a.fail(id, protocol.Errorf(protocol.CodeProtocolMismatch, "herdr server at %s sent an unreadable ping answer: %v", sock, err))
	}
	if pong.Protocol != protocol.ProtocolVersion {
		return a.fail(id, protocol.Errorf(protocol.CodeProtocolMismatch,
			"herdr server at %s speaks protocol %d (version %s) but this herdr speaks protocol %d (version %s); restart it with `%s` and then `%s`",
			sock, pong.Protocol, pong.Version, protocol.ProtocolVersion, protocol.Version, a.herdrCmd("server stop"), a.herdrCmd("")))
	}
	_ = c.Conn().SetDeadline(time.Time{})
	return 0
}

// dial connects to sock; when nothing listens it prints server_not_running.
func (a *app) dial(id, sock string) (*protocol.Client, int) {
	c, err := protocol.Connect(sock)
	if err == nil {
		return c, 0
	}
	if errors.Is(err, protocol.ErrUnsafeSocket) {
		return nil, a.fail(id, unsafeSocket(err))
	}
	if protocol.IsNotRunning(err) {
		return nil, a.fail(id, protocol.Errorf(protocol.CodeServerNotRunning,
			"no herdr server is running at %s; run `%s` to start or attach it", sock, a.herdrCmd("")))
	}
	return nil, a.fail(id, protocol.Errorf(protocol.CodeServerNotRunning,
		"cannot reach herdr server at %s: %v", sock, err))
}

// unsafeSocket is the error for a socket Dial would not trust.
func unsafeSocket(err error) error {
	return protocol.Errorf(protocol.CodeUnsafeSocket, "%v", err)
}

func lostConnection(sock string, err error) error {
	return protocol.Errorf(protocol.CodeServerUnavailable, "lost connection to herdr server at %s: %v", sock, err)
}

// roundTrip sends one request and returns the raw response line, verbatim,
// together with its decoding.
func roundTrip(c *protocol.Client, id, method string, params any) ([]byte, protocol.Response, error) {
	req, err := encodeRequest(id, method, params)
	if err != nil {
		return nil, protocol.Response{}, err
	}
	line, err := c.RoundTrip(req)
	if err != nil {
		return nil, protocol.Response{}, err
	}
	return decodeResponse(line)
}

// encodeRequest renders one request line (without the newline).
func encodeRequest(id, method string, params any) ([]byte, error) {
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encode params: %w", err)
	}
	// The envelope by hand, as protocol.EncodeSuccess writes answers: the
	// same bytes as json.Marshal of a protocol.Request (TestEncodeRequest_
	// AsMarshal), without building the Request encoder at every call's
	// start, nor validating and compacting params a second time.
	qid, _ := json.Marshal(id)
	qmethod, _ := json.Marshal(method)
	req := make([]byte, 0, len(qid)+len(qmethod)+len(p)+32)
	req = append(append(append(req, `{"id":`...), qid...), `,"method":`...)
	req = append(req, qmethod...)
	if len(p) > 0 { // never empty: json.Marshal's least is "{}" or "null"
		req = append(append(req, `,"params":`...), p...)
	}
	return append(req, '}'), nil
}

// decodeResponse decodes one response line, returned verbatim (without a
// trailing CR).
func decodeResponse(line []byte) ([]byte, protocol.Response, error) {
	line = []byte(strings.TrimRight(string(line), "\r"))
	var resp protocol.Response
	if err := protocol.Unmarshal(line, &resp); err != nil {
		return nil, protocol.Response{}, fmt.Errorf("unreadable response %q: %w", line, err)
	}
	return line, resp, nil
}

// --- shared flags ----------------------------------------------------------

// parseEnv turns repeated --env KEY=VALUE flags into a map (nil when none).
func parseEnv(list []string) (map[string]string, error) {
	if len(list) == 0 {
		return nil, nil
	}
	m := make(map[string]string, len(list))
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("invalid --env %q: expected KEY=VALUE with a non-empty KEY", kv)
		}
		if strings.ContainsRune(kv, 0) {
			return nil, fmt.Errorf("invalid --env %q: NUL bytes are not allowed", kv)
		}
		m[k] = v
	}
	return m, nil
}

// absPath expands a leading ~ and makes p absolute against the caller's cwd.
func (a *app) absPath(p string) (string, error) {
	if p == "" {
		return "", errors.New("--cwd must not be empty")
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		home := a.env("HOME")
		if home == "" {
			return "", fmt.Errorf("cannot expand %q: HOME is not set", p)
		}
		p = filepath.Join(home, p[1:])
	}
	if !filepath.IsAbs(p) {
		wd, err := a.getwd()
		if err != nil {
			return "", fmt.Errorf("cannot resolve %q: %v", p, err)
		}
		p = filepath.Join(wd, p)
	}
	return p, nil
}

// focusFlags are the --focus / --no-focus pair; creation never steals focus by default.
type focusFlags struct{ focus, noFocus bool }

func (f *focusFlags) bind(cmd *cobra.Command, what string) {
	cmd.Flags().BoolVar(&f.focus, "focus", false, "focus the new "+what)
	cmd.Flags().BoolVar(&f.noFocus, "no-focus", false, "do not focus the new "+what+" (default)")
	cmd.MarkFlagsMutuallyExclusive("focus", "no-focus")
}

func (f *focusFlags) value() bool { return f.focus && !f.noFocus }

// spawnFlags are the options shared by workspace create, tab create and pane split.
type spawnFlags struct {
	cwd   string
	env   []string
	focus focusFlags
}

func (s *spawnFlags) bind(cmd *cobra.Command, what string) {
	cmd.Flags().StringVar(&s.cwd, "cwd", "", "working directory of the new "+what+"'s shell (relative to the current directory, ~ expanded)")
	cmd.Flags().StringArrayVar(&s.env, "env", nil, "set an environment variable KEY=VALUE in the new shell (repeatable)")
	s.focus.bind(cmd, what)
}

// resolve returns the wire cwd (nil when not given) and env map.
func (s *spawnFlags) resolve(a *app, cmd *cobra.Command) (*string, map[string]string, error) {
	env, err := parseEnv(s.env)
	if err != nil {
		return nil, nil, err
	}
	if !cmd.Flags().Changed("cwd") {
		return nil, env, nil
	}
	cwd, err := a.absPath(s.cwd)
	if err != nil {
		return nil, nil, err
	}
	return &cwd, env, nil
}

// optional returns &v when the flag was given, else nil.
func optional(cmd *cobra.Command, flag, v string) *string {
	if cmd.Flags().Changed(flag) {
		return &v
	}
	return nil
}
