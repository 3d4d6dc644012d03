package cli

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// pluginSource is owner/repo[/subdir…] of a plugin on a git host.
type pluginSource struct{ owner, repo, subdir string }

// sourceOwnerRepo is a git host's owner or repository name; a subdir's
// parts may hold more, but no control character.
var sourceOwnerRepo = protocol.LazyRegexp(`^[A-Za-z0-9_.][A-Za-z0-9_.-]*$`)

func parsePluginSource(arg string) (pluginSource, error) {
	parts := strings.Split(strings.Trim(arg, "/"), "/")
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return pluginSource{}, fmt.Errorf("expected <owner>/<repo>[/subdir...], got %q", arg)
	}
	for i, p := range parts {
		// Nothing that git could read as an option, or that leaves the
		// checkout, or that would act on the terminal it is shown on.
		bad := p == "." || p == ".." || strings.HasPrefix(p, "-") || strings.ContainsAny(p, `\ `) || protocol.Printable(p) != p
		if bad || i < 2 && !sourceOwnerRepo().MatchString(p) {
			return pluginSource{}, fmt.Errorf("bad plugin source %q", arg)
		}
	}
	return pluginSource{owner: parts[0], repo: parts[1], subdir: filepath.Join(parts[2:]...)}, nil
}

// checkRef refuses a --ref that git could read as an option or that is
// not a ref name as git check-ref-format has them (a commit id is one),
// so it can only ever name what to fetch.
func checkRef(ref string) error {
	bad := func(why string) error { return fmt.Errorf("--ref %q: %s", ref, why) }
	switch {
	case ref == "" || ref == "@":
		return bad("not a ref name")
	case strings.HasPrefix(ref, "-"):
		return bad("a ref may not start with '-'")
	case strings.HasPrefix(ref, "/") || strings.HasSuffix(ref, "/") || strings.Contains(ref, "//"):
		return bad("a ref may not start or end with '/' or hold '//'")
	case strings.Contains(ref, "..") || strings.Contains(ref, "@{") || strings.HasSuffix(ref, "."):
		return bad(`a ref may not hold ".." or "@{", or end with '.'`)
	}
	for _, r := range ref {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return bad("a ref may not hold spaces, control characters or any of ~ ^ : ? * [ \\")
		}
	}
	for _, part := range strings.Split(ref, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return bad("no part of a ref may start with '.' or end with \".lock\"")
		}
	}
	return nil
}

func (s pluginSource) String() string {
	return strings.TrimSuffix(s.owner+"/"+s.repo+"/"+filepath.ToSlash(s.subdir), "/")
}

// gitBase is where owner/repo is fetched from: HERDR_PLUGIN_GIT_BASE
// (tests point it at local bare repositories), else GitHub.
func (a *app) gitBase() string {
	if b := a.env("HERDR_PLUGIN_GIT_BASE"); b != "" {
		return strings.TrimSuffix(b, "/")
	}
	return "https://github.com"
}

func (a *app) pluginInstallCmd() *cobra.Command {
	var ref string
	var yes bool
	cmd := &cobra.Command{
		Use:   "install <owner>/<repo>[/subdir...] [--ref REF] [--yes]",
		Short: "Install a plugin from a git repository: preview, build, link",
		Long: `Fetch the repository (one commit of --ref, else its HEAD), show what the
plugin is and what it will run, and after your yes (or --yes) run its build
commands, move it under the config folder and link it.`,
		Args: exactArgs("<owner>/<repo>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := parsePluginSource(args[0])
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("ref") {
				if err := checkRef(ref); err != nil {
					return err
				}
			}
			in, isFile := a.stdin.(*os.File)
			if !yes && (!isFile || !term.IsTerminal(in.Fd())) {
				return fmt.Errorf("remote plugin install requires --yes when stdin is not interactive")
			}
			return exit(a.installPlugin(src, ref, yes))
		},
	}
	cmd.Flags().StringVar(&ref, "ref", "", "the branch, tag or commit `REF` to install")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "install without asking")
	return cmd
}

// childWaitDelay bounds the wait for a child's output once it ended: a
// process it left behind holding the pipe (a build that starts a daemon)
// must not hang the command.
const childWaitDelay = 2 * time.Second

// combinedOutput is cmd.CombinedOutput with the wait on its pipes bounded
// (childWaitDelay).
func combinedOutput(cmd *exec.Cmd) ([]byte, error) {
	cmd.WaitDelay = childWaitDelay
	return cmd.CombinedOutput()
}

func runGit(dir string, args ...string) (string, error) {
	out, err := combinedOutput(exec.Command("git", append([]string{"-C", dir}, args...)...))
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(string(out)))
	}
	return strings.TrimSpace(string(out)), nil
}

func (a *app) installPlugin(src pluginSource, ref string, yes bool) int {
	tmp, err := os.MkdirTemp("", "herdr-plugin-install")
	if err != nil {
		fmt.Fprintf(a.stderr, "plugin install: %v\n", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	checkout := filepath.Join(tmp, "checkout")
	fetchRef := ref
	if fetchRef == "" {
		fetchRef = "HEAD"
	}
	url := a.gitBase() + "/" + src.owner + "/" + src.repo + ".git"
	if strings.HasPrefix(url, "-") {
		fmt.Fprintf(a.stderr, "plugin install: the repository URL %q starts with '-'\n", protocol.Printable(url))
		return 1
	}
	var commit string
	// Every value from the person or the environment comes after "--":
	// git reads none of them as an option.
	for _, step := range [][]string{
		{"init", "-q", "--", checkout},
		{"-C", checkout, "remote", "add", "--", "origin", url},
		{"-C", checkout, "fetch", "-q", "--depth", "1", "--", "origin", fetchRef},
		{"-C", checkout, "checkout", "-q", "--detach", "FETCH_HEAD"},
	} {
		if out, err := combinedOutput(exec.Command("git", step...)); err != nil {
			fmt.Fprintf(a.stderr, "plugin install: git %s failed: %s\n", protocol.Printable(step[len(step)-1]), printableLines(strings.TrimSpace(string(out))))
			return 1
		}
	}
	if commit, err = runGit(checkout, "rev-parse", "HEAD"); err != nil {
		fmt.Fprintf(a.stderr, "plugin install: %v\n", err)
		return 1
	}
	root := filepath.Join(checkout, src.subdir)
	preview, err := plugins.LoadManifest(filepath.Join(root, "herdr-plugin.toml"))
	if err != nil {
		fmt.Fprintf(a.stderr, "plugin install: %s\n", protocol.Printable(protocol.AsError(err).Message))
		return 1
	}
	// Every string of the manifest is shown through protocol.Printable
	// (commands are quoted): a name cannot erase or forge the lines below
	// it, or reach the person's clipboard.
	show := protocol.Printable
	fmt.Fprintf(a.stderr, "Plugin %s (%s %s) from %s at %s\n", show(preview.PluginID), show(preview.Name), show(preview.Version), show(src.String()), show(commit))
	if d := preview.Description; d != nil {
		fmt.Fprintf(a.stderr, "  %s\n", show(*d))
	}
	for _, b := range preview.Build {
		fmt.Fprintf(a.stderr, "  build:   %q\n", b.Command)
	}
	for _, s := range preview.Startup {
		fmt.Fprintf(a.stderr, "  startup: %q\n", s.Command)
	}
	for _, e := range preview.Events {
		fmt.Fprintf(a.stderr, "  on %s: %q\n", show(e.On), e.Command)
	}
	for _, ac := range preview.Actions {
		fmt.Fprintf(a.stderr, "  action %s (%s): %q\n", show(ac.ID), show(ac.Title), ac.Command)
	}
	for _, w := range preview.Warnings {
		fmt.Fprintf(a.stderr, "  warning: %s\n", show(w))
	}
	if !yes {
		fmt.Fprint(a.stderr, "Install this plugin? [y/N] ")
		answer, _ := bufio.NewReader(a.stdin).ReadString('\n')
		if reply := strings.ToLower(strings.TrimSpace(answer)); reply != "y" && reply != "yes" {
			fmt.Fprintln(a.stderr, "plugin install cancelled")
			return 0
		}
	}
	for _, b := range preview.Build {
		cmd := exec.Command(b.Command[0], b.Command[1:]...)
		cmd.Dir = root
		if out, err := combinedOutput(cmd); err != nil {
			fmt.Fprintf(a.stderr, "plugin install: build %q failed: %v\n%s\n", b.Command, err, printableLines(strings.TrimRight(string(out), "\n")))
			return 1
		}
	}
	after, err := plugins.LoadManifest(filepath.Join(root, "herdr-plugin.toml"))
	if err != nil || !reflect.DeepEqual(after, preview) {
		fmt.Fprintln(a.stderr, "plugin install: the build changed the plugin's manifest; not installing")
		return 1
	}
	sum := sha256Sum([]byte(preview.PluginID))
	final := filepath.Join(protocol.ConfigDir(a.env), "plugins", "github", plugins.EscapeID(src.repo)+"-"+hex.EncodeToString(sum[:])[:12])
	if err := os.MkdirAll(filepath.Dir(final), 0o700); err != nil {
		fmt.Fprintf(a.stderr, "plugin install: %v\n", err)
		return 1
	}
	if err := os.RemoveAll(final); err != nil {
		fmt.Fprintf(a.stderr, "plugin install: replace %s: %v\n", final, err)
		return 1
	}
	if err := os.Rename(checkout, final); err != nil {
		fmt.Fprintf(a.stderr, "plugin install: %v\n", err)
		return 1
	}
	now := uint64(time.Now().UnixMilli())
	source := &protocol.PluginSourceInfo{Kind: "github", Owner: &src.owner, Repo: &src.repo, ResolvedCommit: &commit, ManagedPath: &final, InstalledUnixMS: &now}
	if src.subdir != "" {
		source.Subdir = protocol.Ptr(filepath.ToSlash(src.subdir))
	}
	if ref != "" {
		source.RequestedRef = &ref
	}
	manifest := filepath.Join(final, src.subdir, "herdr-plugin.toml")
	if code := a.linkInstalled(manifest, source); code != 0 {
		return code
	}
	configDir, _ := plugins.Dirs(protocol.ConfigDir(a.env), protocol.StateDir(a.env), preview.PluginID)
	fmt.Fprintf(a.stdout, "Installed %s from %s.\nConfig: %s\n", show(preview.PluginID), show(src.String()), show(configDir))
	return 0
}

// linkInstalled links the installed plugin through the server, or, with
// none running, in the registry file itself.
func (a *app) linkInstalled(manifest string, source *protocol.PluginSourceInfo) int {
	const id = "cli:plugin:install"
	listening, code := a.serverListening(id)
	switch {
	case code != 0:
		return code
	case listening:
		return a.silent(id, "plugin.link", protocol.PluginLinkParams{Path: manifest, Source: source})
	}
	if _, err := a.linkInRegistry(manifest, nil, source); err != nil {
		fmt.Fprintf(a.stderr, "plugin install: %s\n", protocol.Printable(protocol.AsError(err).Message))
		return 1
	}
	return 0
}

func (a *app) pluginUninstallCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "uninstall <plugin_id|owner/repo[/subdir...]>",
		Short: "Unlink a plugin and delete the copy `plugin install` made",
		Args:  exactArgs("<plugin>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.uninstallPlugin(args[0]))
		},
	}
}

// uninstallPlugin unlinks a plugin (through the server, or in the registry
// file when none runs) and removes its managed copy, if it has one.
func (a *app) uninstallPlugin(target string) int {
	const id = "cli:plugin"
	// A running server is asked what it has linked: its writes of
	// plugins.json trail its answers, so the file can still list a plugin
	// an uninstall just unlinked.
	listening, code := a.serverListening(id)
	if code != 0 {
		return code
	}
	path := a.registryPath()
	var reg *plugins.Registry
	var linked []protocol.InstalledPluginInfo
	if listening {
		code := a.request(id, "plugin.list", protocol.PluginListParams{}, func(_ []byte, resp protocol.Response) int {
			var list protocol.PluginList
			if err := protocol.Unmarshal(resp.Result, &list); err != nil {
				return a.fail(id, err)
			}
			linked = list.Plugins
			return 0
		})
		if code != 0 {
			return code
		}
	} else {
		var err error
		if reg, err = a.openRegistry(); err != nil {
			fmt.Fprintf(a.stderr, "plugin uninstall: %s\n", protocol.Printable(protocol.AsError(err).Message))
			return 1
		}
		linked = reg.Plugins
	}
	var found *protocol.InstalledPluginInfo
	src, srcErr := parsePluginSource(target)
	for i := range linked {
		pl := &linked[i]
		if pl.PluginID == target {
			found = pl
		}
		if s := pl.Source; srcErr == nil && s != nil && s.Kind == "github" && s.Owner != nil && s.Repo != nil &&
			*s.Owner == src.owner && *s.Repo == src.repo && filepath.ToSlash(src.subdir) == deref(s.Subdir) {
			found = pl
		}
	}
	if found == nil {
		fmt.Fprintf(a.stderr, "plugin not installed: %s\n", protocol.Printable(target))
		return 1
	}
	if listening {
		if code := a.silent(id, "plugin.unlink", protocol.PluginIDParams{PluginID: found.PluginID}); code != 0 {
			return code
		}
	} else {
		reg.Remove(found.PluginID)
		data, _ := reg.Encode()
		if err := plugins.WriteRegistry(path, data); err != nil {
			fmt.Fprintf(a.stderr, "plugin uninstall: %s\n", protocol.Printable(protocol.AsError(err).Message))
			return 1
		}
	}
	if s := found.Source; s != nil && s.Kind == "github" && s.ManagedPath != nil {
		managed := filepath.Join(protocol.ConfigDir(a.env), "plugins", "github")
		if rel, err := filepath.Rel(managed, *s.ManagedPath); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
			if err := os.RemoveAll(*s.ManagedPath); err != nil {
				fmt.Fprintf(a.stderr, "plugin uninstall: remove %s: %v\n", *s.ManagedPath, err)
				return 1
			}
		}
	}
	fmt.Fprintf(a.stdout, "Uninstalled %s.\n", found.PluginID)
	return 0
}

// printableLines is text (a command's output) shown line by line, each
// through protocol.Printable.
func printableLines(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = protocol.Printable(strings.TrimSuffix(l, "\r"))
	}
	return strings.Join(lines, "\n")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
