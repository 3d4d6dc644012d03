package plugins

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"

	"github.com/herdr-go/herdr/protocol"
)

// manifest is herdr-plugin.toml as written.
type manifest struct {
	ID              string                               `toml:"id"`
	Name            string                               `toml:"name"`
	Version         string                               `toml:"version"`
	MinHerdrVersion string                               `toml:"min_herdr_version"`
	Description     *string                              `toml:"description"`
	Platforms       []string                             `toml:"platforms"`
	Build           []protocol.PluginCommand             `toml:"build"`
	Startup         []protocol.PluginCommand             `toml:"startup"`
	Actions         []protocol.PluginManifestAction      `toml:"actions"`
	Events          []protocol.PluginManifestEventHook   `toml:"events"`
	Panes           []protocol.PluginManifestPane        `toml:"panes"`
	LinkHandlers    []protocol.PluginManifestLinkHandler `toml:"link_handlers"`
}

// Bounds of a manifest.
const (
	// MaxManifestBytes bounds herdr-plugin.toml: far above any real one.
	MaxManifestBytes = 1 << 20
	// MaxIDLength is Herdr's bound on a plugin id.
	MaxIDLength = 120
)

var (
	// pluginIDPattern is Herdr's plugin id characters with a letter or
	// digit first: an id names the plugin's config and state folders, so
	// "." and ".." (and "-x", read as a flag) are not ids.
	pluginIDPattern = protocol.LazyRegexp(`^[A-Za-z0-9][A-Za-z0-9.:_-]*$`)
	localIDPattern  = protocol.LazyRegexp(`^[A-Za-z0-9:_-]+$`)
	// semverPattern allows semver's pre-release and build suffixes, in
	// their own characters only.
	semverPattern = protocol.LazyRegexp(`^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$`)
	platforms     = []string{"linux", "macos", "windows"}
	contexts      = []string{"global", "workspace", "tab", "pane", "selection"}
	placements    = []string{"overlay", "popup", "split", "tab", "zoomed"}
)

// HookEvents are the event names [[events]] hooks may run on, Herdr's:
// every lifecycle event (worktree_created is worktree.created) but the
// high-volume workspace.metadata_updated, pane.updated,
// pane.output_changed and layout.updated, on which no hook runs.
// It is built when first asked (a package-level map is built at every
// herdr call's start).
var HookEvents = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, k := range protocol.LifecycleKinds {
		switch k {
		case "workspace_metadata_updated", "pane_updated", "pane_output_changed", "layout_updated":
			continue
		}
		m[strings.Replace(k, "_", ".", 1)] = true
	}
	return m
})

// ValidID reports whether id is a plugin id: Herdr's characters
// (A-Z a-z 0-9 . : _ -), a letter or digit first, no "..", at most
// MaxIDLength bytes.
func ValidID(id string) bool {
	return len(id) <= MaxIDLength && pluginIDPattern().MatchString(id) && !strings.Contains(id, "..")
}

// CheckID is ValidID as Herdr's invalid_plugin_id error.
func CheckID(id string) error {
	if !ValidID(id) {
		return invalid("id", "plugin id %q must start with a letter or digit, use only A-Z a-z 0-9 . : _ -, hold no \"..\" and be at most %d characters", id, MaxIDLength)
	}
	return nil
}

// invalid is Herdr's error for a bad manifest field.
func invalid(field, format string, args ...any) error {
	return protocol.Errorf("invalid_plugin_"+field, "%s", fmt.Sprintf(format, args...))
}

// LoadManifest reads and validates the manifest at path, returning the
// plugin as the registry keeps it (enabled, no source yet). Warnings are
// problems that do not stop the plugin, as in Herdr: no platforms
// declared, an [[events]] on that is no event ("unknown event 'x'") or an
// event hooks do not run on; an empty on is an error.
func LoadManifest(path string) (protocol.InstalledPluginInfo, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return protocol.InstalledPluginInfo{}, protocol.Errorf(protocol.CodePluginManifestRead, "%v", err)
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() { // a plugin's folder names its manifest
		abs = filepath.Join(abs, "herdr-plugin.toml")
	}
	// Bounded and regular only: a manifest that is /dev/zero or a FIFO is
	// refused at once, never read into memory or waited on.
	data, err := protocol.ReadRegularFile(abs, MaxManifestBytes)
	if err != nil {
		return protocol.InstalledPluginInfo{}, protocol.Errorf(protocol.CodePluginManifestRead, "read %s: %v", abs, err)
	}
	var m manifest
	dec := toml.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&m); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return protocol.InstalledPluginInfo{}, protocol.Errorf(protocol.CodePluginManifestParse, "%s:%d:%d: %s", abs, row, col, de.Error())
		}
		return protocol.InstalledPluginInfo{}, protocol.Errorf(protocol.CodePluginManifestParse, "%s: %v", abs, err)
	}
	info, err := m.validate()
	if err != nil {
		return protocol.InstalledPluginInfo{}, err
	}
	info.ManifestPath, info.PluginRoot, info.Enabled = abs, filepath.Dir(abs), true
	return info, nil
}

func (m *manifest) validate() (protocol.InstalledPluginInfo, error) {
	info := protocol.InstalledPluginInfo{
		PluginID: m.ID, Name: m.Name, Version: m.Version, MinHerdrVersion: m.MinHerdrVersion, Description: m.Description,
		Platforms: m.Platforms, Build: nonNil(m.Build), Startup: nonNil(m.Startup), Actions: nonNil(m.Actions),
		Events: nonNil(m.Events), Panes: nonNil(m.Panes), LinkHandlers: nonNil(m.LinkHandlers), Warnings: []string{},
	}
	switch {
	case !ValidID(m.ID):
		return info, CheckID(m.ID)
	case strings.TrimSpace(m.Name) == "":
		return info, invalid("name", "name must not be empty")
	case !semverPattern().MatchString(m.Version):
		return info, invalid("version", "version %q is not a semantic version", m.Version)
	case !semverPattern().MatchString(m.MinHerdrVersion):
		return info, invalid("min_herdr_version", "min_herdr_version %q is not a semantic version", m.MinHerdrVersion)
	case newer(m.MinHerdrVersion, protocol.Version):
		return info, protocol.Errorf(protocol.CodePluginTooNew, "plugin %s needs herdr %s or newer; this is %s", m.ID, m.MinHerdrVersion, protocol.Version)
	}
	if m.Platforms == nil {
		info.Warnings = append(info.Warnings, "no platforms declared; assuming every platform")
	}
	if err := checkPlatforms(m.Platforms); err != nil {
		return info, err
	}
	for _, c := range append(slices.Clone(m.Build), m.Startup...) {
		if err := checkCommand(c.Command, c.Platforms); err != nil {
			return info, err
		}
	}
	seen := map[string]bool{}
	for _, a := range m.Actions {
		if err := checkLocal("action_id", a.ID, seen); err != nil {
			return info, err
		}
		if strings.TrimSpace(a.Title) == "" {
			return info, invalid("action_title", "action %s has no title", a.ID)
		}
		for _, c := range a.Contexts {
			if !slices.Contains(contexts, c) {
				return info, invalid("action_context", "action %s: unknown context %q (use %s)", a.ID, c, strings.Join(contexts, ", "))
			}
		}
		if err := checkCommand(a.Command, a.Platforms); err != nil {
			return info, err
		}
	}
	for _, e := range m.Events {
		if strings.TrimSpace(e.On) == "" {
			return info, invalid("event", "an [[events]] entry has no `on`")
		}
		if err := checkCommand(e.Command, e.Platforms); err != nil {
			return info, err
		}
		if w := eventWarning(e.On); w != "" && !slices.Contains(info.Warnings, w) {
			info.Warnings = append(info.Warnings, w)
		}
	}
	clear(seen)
	for i := range info.Panes {
		p := &info.Panes[i]
		if err := checkLocal("pane_id", p.ID, seen); err != nil {
			return info, err
		}
		if p.Placement == "" {
			p.Placement = "overlay"
		}
		if !slices.Contains(placements, p.Placement) {
			return info, invalid("pane_placement", "pane %s: unknown placement %q", p.ID, p.Placement)
		}
		for _, v := range []any{p.Width, p.Height} {
			if _, err := protocol.ParsePopupSize(v); err != nil {
				return info, invalid("pane_size", "pane %s: %s", p.ID, protocol.AsError(err).Message)
			}
		}
		if p.Placement != "popup" && (p.Width != nil || p.Height != nil) {
			return info, invalid("pane_size", "pane %s: width and height are only supported when placement is popup", p.ID)
		}
		if err := checkCommand(p.Command, p.Platforms); err != nil {
			return info, err
		}
	}
	clear(seen)
	for _, l := range m.LinkHandlers {
		if err := checkLocal("link_handler_id", l.ID, seen); err != nil {
			return info, err
		}
		if strings.TrimSpace(l.Title) == "" {
			return info, invalid("link_handler_title", "link handler %s has no title", l.ID)
		}
		if _, err := regexp.Compile(l.Pattern); err != nil || l.Pattern == "" {
			return info, invalid("link_handler_pattern", "link handler %s: bad pattern %q", l.ID, l.Pattern)
		}
		if !slices.ContainsFunc(m.Actions, func(a protocol.PluginManifestAction) bool { return a.ID == l.Action }) {
			return info, invalid("link_handler_action", "link handler %s references unknown action %q", l.ID, l.Action)
		}
		if err := checkPlatforms(l.Platforms); err != nil {
			return info, err
		}
	}
	return info, nil
}

// eventWarning is what an [[events]] on that runs no hook gets, as in
// Herdr: the plugin links, and its info says why the hook will not run.
// The name is escaped (no byte of it acts on a terminal).
func eventWarning(on string) string {
	if HookEvents()[on] {
		return ""
	}
	name := strconv.Quote(on)
	name = name[1 : len(name)-1]
	_, known := protocol.SubscriptionKind(on)
	known = known && strings.Contains(on, ".") // pane_created is the wire's kind, not a name
	if known || on == "pane.output_changed" || on == protocol.SubOutputMatched || on == protocol.SubScrollChanged {
		return fmt.Sprintf("event '%s' runs no plugin hooks (too frequent); the hook never runs", name)
	}
	return fmt.Sprintf("unknown event '%s'", name)
}

// hookEventNames are HookEvents, sorted.
func hookEventNames() []string {
	names := make([]string, 0, len(HookEvents()))
	for n := range HookEvents() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func checkLocal(field, id string, seen map[string]bool) error {
	if !localIDPattern().MatchString(id) {
		return invalid(field, "%s %q must be non-empty and use only A-Z a-z 0-9 : _ - (no dots)", field, id)
	}
	if seen[id] {
		return protocol.Errorf("duplicate_plugin_"+field, "%s %q is declared twice", field, id)
	}
	seen[id] = true
	return nil
}

func checkCommand(argv, plats []string) error {
	if len(argv) == 0 || argv[0] == "" {
		return invalid("command", "a command must be a non-empty argv list")
	}
	return checkPlatforms(plats)
}

func checkPlatforms(plats []string) error {
	for _, p := range plats {
		if !slices.Contains(platforms, p) {
			return invalid("platform", "unknown platform %q (use linux, macos, windows)", p)
		}
	}
	return nil
}

// newer reports whether semantic version a is newer than b.
func newer(a, b string) bool {
	pa, pb := semverPattern().FindStringSubmatch(a), semverPattern().FindStringSubmatch(b)
	if pa == nil || pb == nil {
		return false
	}
	for i := 1; i <= 3; i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			return x > y
		}
	}
	return false
}

// ThisPlatform is the platform name manifests use for this build.
func ThisPlatform() string {
	if runtime.GOOS == "darwin" {
		return "macos"
	}
	return runtime.GOOS
}

// RunsHere reports whether an entry (with its own platforms, else the
// plugin's) runs on this platform.
func RunsHere(plugin, entry []string) bool {
	if entry == nil {
		entry = plugin
	}
	return entry == nil || slices.Contains(entry, ThisPlatform())
}
