package setup

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

// Target is one agent herdr integrates with.
type Target struct {
	// Name is the CLI name ("antigravity-cli"); Wire the API's ("antigravity_cli").
	Name, Wire string
	// Title is the agent's name in messages.
	Title string
	// Version is written into the installed files' marker; status compares it.
	Version int
	// Agent and Source are the agent label and report source the hook uses.
	Agent, Source string
	// Reports says in a few words what the hook reports (docs, status).
	Reports string

	dir    func(e environ) (string, error)
	create bool // the config dir is created when missing (else required)
	// need is the folder of the config dir the install writes into that
	// must exist; install makes it when the config dir exists ("": the
	// config dir itself must exist).
	need string
	// command is the agent's command when it is not Agent.
	command string
	check   func(e environ, dir string) error
	files   []asset
	regs    []registration
	keys    payloadKeys
	answer  string // what the hook prints on stdout for agents that read one
	// mcp registers `herdr mcp` in the agent's MCP settings (nil: none).
	mcp mcpServer
}

// asset is one file herdr writes for a target; the first carries the
// version markers and, for hook targets, is the script the agent runs.
type asset struct {
	rel  string
	body func(t *Target) string
	exec bool
}

// registration is how a target's hook is made known to its agent.
type registration interface {
	install(dir, script string) ([]string, error)
	uninstall(dir, script string) ([]string, error)
}

// payloadKeys name where a hook's input carries the agent's session: keys
// of the input for its id and path, environment variables for the id, keys
// whose presence marks a subagent's hook (skipped), and a command listing
// the agent's sessions as JSON for inputs without an id, run in the
// project directory (listDirEnv, else the hook's working directory).
type payloadKeys struct {
	id, path, idEnv, skip, list, listDirEnv []string
}

// environ looks up an environment variable ("" when unset).
type environ func(string) string

func (e environ) home() (string, error) {
	for _, k := range []string{"HOME", "USERPROFILE"} {
		if h := e(k); h != "" {
			return h, nil
		}
	}
	return "", errors.New("cannot find the home directory: HOME is not set")
}

// expand resolves a leading ~ against the home directory.
func (e environ) expand(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	h, err := e.home()
	if err != nil {
		return "", err
	}
	return filepath.Join(h, strings.TrimPrefix(strings.TrimPrefix(p, "~"), "/")), nil
}

// envOrHome is the first set variable of vars, else ~/rel.
func envOrHome(rel string, vars ...string) func(environ) (string, error) {
	return func(e environ) (string, error) {
		for _, v := range vars {
			if p := e(v); p != "" {
				return e.expand(p)
			}
		}
		h, err := e.home()
		if err != nil {
			return "", err
		}
		return filepath.Join(h, filepath.FromSlash(rel)), nil
	}
}

// Targets returns every target in the schema's order.
func Targets() []*Target { return targets() }

// Lookup finds a target by its CLI or wire name.
func Lookup(name string) (*Target, bool) {
	for _, t := range targets() {
		if t.Name == name || t.Wire == name {
			return t, true
		}
	}
	return nil, false
}

// Dir is the configuration directory the target installs into.
func (t *Target) Dir(getenv func(string) string) (string, error) { return t.dir(environ(getenv)) }

// Command is the agent's command name.
func (t *Target) Command() string {
	if t.command != "" {
		return t.command
	}
	return t.Agent
}

// Required is the directory whose presence means the agent is installed
// here, the one an install refuses without: the config dir, or the folder
// of it the install writes into when the install makes that folder in an
// existing config dir (pi's and oh-my-pi's extensions).
func (t *Target) Required(getenv func(string) string) (string, error) {
	dir, err := t.Dir(getenv)
	if err != nil || t.need == "" {
		return dir, err
	}
	return filepath.Join(dir, filepath.FromSlash(t.need)), nil
}

// Available reports whether an install can succeed here now: the required
// directory exists, or the install makes it.
func (t *Target) Available(getenv func(string) string) bool {
	req, err := t.Required(getenv)
	switch {
	case err != nil:
		return false
	case t.create || isDir(req):
		return true
	}
	return t.need != "" && isDir(filepath.Dir(req))
}

// MarkerFile is the installed file whose markers status reads.
func (t *Target) MarkerFile(getenv func(string) string) (string, error) {
	dir, err := t.Dir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(t.files[0].rel)), nil
}

// Install writes the target's files and registers its hook, returning one
// message per step. Installing twice leaves the same files.
func Install(name string, getenv func(string) string) ([]string, error) {
	t, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown integration target %q", name)
	}
	e := environ(getenv)
	dir, err := t.dir(e)
	if err != nil {
		return nil, err
	}
	if err := t.ensureRequired(getenv); err != nil {
		return nil, err
	}
	if t.check != nil {
		if err := t.check(e, dir); err != nil {
			return nil, err
		}
	}
	var msgs []string
	var undo undoFiles
	fail := func(err error) ([]string, error) {
		if undone := undo.run(); len(undone) > 0 {
			msgs = append(msgs, undone...)
			err = fmt.Errorf("%w; %s", err, strings.Join(undone, "; "))
		}
		return msgs, err
	}
	for _, a := range t.files {
		path := filepath.Join(dir, filepath.FromSlash(a.rel))
		mode := os.FileMode(0o644)
		if a.exec {
			mode = 0o755
		}
		undo.keep(path)
		wrote, err := writeFile(path, []byte(a.body(t)), mode)
		if err != nil {
			return fail(err)
		}
		if wrote {
			msgs = append(msgs, "wrote "+path)
		} else {
			msgs = append(msgs, path+" is up to date")
		}
	}
	script := filepath.Join(dir, filepath.FromSlash(t.files[0].rel))
	for i, r := range t.regs {
		m, err := r.install(dir, script)
		msgs = append(msgs, m...)
		if err != nil {
			for _, done := range t.regs[:i] { // the registrations made: taken out again
				if um, uerr := done.uninstall(dir, script); uerr == nil {
					msgs = append(msgs, um...)
				}
			}
			return fail(err)
		}
	}
	if t.mcp != nil {
		m, err := t.mcp.install(e, dir)
		msgs = append(msgs, m...)
		if err != nil {
			for _, done := range t.regs {
				if um, uerr := done.uninstall(dir, script); uerr == nil {
					msgs = append(msgs, um...)
				}
			}
			return fail(err)
		}
	}
	return append(msgs, fmt.Sprintf("installed %s integration (v%d)", t.Name, t.Version)), nil
}

// undoFiles puts back the files an install wrote when a later step
// fails: a file that was not there is removed (a hook script left behind
// would make the integration look installed), one that was is given its
// old contents back.
type undoFiles []keptFile

type keptFile struct {
	path string
	old  []byte // nil: there was no file
	mode os.FileMode
}

// keep notes path's contents before the install writes it.
func (u *undoFiles) keep(path string) {
	real, err := throughLinks(path)
	if err != nil {
		return // the write refuses it: nothing to put back
	}
	old, err := readOptional(real)
	if err != nil {
		return
	}
	k := keptFile{path: real, old: old}
	if st, err := os.Stat(real); err == nil {
		k.mode = st.Mode().Perm()
	}
	*u = append(*u, k)
}

// run puts every kept file back, newest first, and says what it did.
func (u undoFiles) run() []string {
	var msgs []string
	for i := len(u) - 1; i >= 0; i-- {
		k := u[i]
		now, err := readOptional(k.path)
		switch {
		case err != nil:
			msgs = append(msgs, fmt.Sprintf("could not restore %s: %v", k.path, err))
		case k.old == nil && now != nil:
			if _, err := removeFile(k.path); err != nil {
				msgs = append(msgs, err.Error())
			} else {
				msgs = append(msgs, "removed "+k.path+" again (the install failed)")
				if parent := filepath.Dir(k.path); strings.Contains(filepath.Base(parent), scriptBase) {
					os.Remove(parent) // herdr's own plugin directory, when empty
				}
			}
		case k.old != nil && !bytes.Equal(now, k.old):
			if err := protocol.WriteFileAtomic(k.path, k.old, k.mode); err != nil {
				msgs = append(msgs, fmt.Sprintf("could not restore %s: %v", k.path, err))
			} else {
				msgs = append(msgs, "restored "+k.path+" (the install failed)")
			}
		}
	}
	return msgs
}

// ensureRequired makes the required directory when the install may (the
// config dir of an agent herdr creates it for; pi's extensions in an
// existing agent dir), else refuses naming it. The path ends the message,
// so a client (or a person) can take it as it is: mkdir -p of it is what
// the install needs.
func (t *Target) ensureRequired(getenv func(string) string) error {
	req, err := t.Required(getenv)
	switch {
	case err != nil:
		return err
	case isDir(req):
		return nil
	case t.create, t.need != "" && isDir(filepath.Dir(req)):
		if err := os.MkdirAll(req, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", req, err)
		}
		return nil
	}
	return fmt.Errorf("install %s first: the %s integration needs the directory %s", t.Title, t.Name, req)
}

// Uninstall removes the target's files and herdr's registrations, leaving
// every other entry of the agent's settings as it was.
func Uninstall(name string, getenv func(string) string) ([]string, error) {
	t, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown integration target %q", name)
	}
	dir, err := t.dir(environ(getenv))
	if err != nil {
		return nil, err
	}
	script := filepath.Join(dir, filepath.FromSlash(t.files[0].rel))
	var msgs []string
	if t.mcp != nil {
		m, err := t.mcp.uninstall(environ(getenv), dir)
		msgs = append(msgs, m...)
		if err != nil {
			return msgs, err
		}
	}
	for _, r := range t.regs {
		m, err := r.uninstall(dir, script)
		msgs = append(msgs, m...)
		if err != nil {
			return msgs, err
		}
	}
	for i := len(t.files) - 1; i >= 0; i-- {
		path := filepath.Join(dir, filepath.FromSlash(t.files[i].rel))
		removed, err := removeFile(path)
		if err != nil {
			return msgs, err
		}
		if removed {
			msgs = append(msgs, "removed "+path)
		}
		if parent := filepath.Dir(path); strings.Contains(filepath.Base(parent), scriptBase) {
			os.Remove(parent) // herdr's own plugin directory, when empty
		}
	}
	if len(msgs) == 0 {
		return []string{fmt.Sprintf("%s integration is not installed", t.Name)}, nil
	}
	return append(msgs, fmt.Sprintf("uninstalled %s integration", t.Name)), nil
}
