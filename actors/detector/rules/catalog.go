package rules

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

//go:embed manifests/*.toml
var bundledFS embed.FS

// Source kinds reported by ManifestInfo.SourceKind.
const (
	SourceBundled = "bundled"
	SourceLocal   = "local override" // as the seeds spell it
)

// Warning reports an override file that could not be used.
type Warning struct {
	Agent string // agent the file was meant for
	Path  string // the override file
	Err   error
}

// Error formats the warning as "<path>: <cause>".
func (w Warning) Error() string { return fmt.Sprintf("%s: %v", w.Path, w.Err) }

// ManifestInfo describes the active manifest of one agent.
type ManifestInfo struct {
	Agent         string `json:"agent"`
	Source        string `json:"source"`      // "bundled" or the override path
	SourceKind    string `json:"source_kind"` // "bundled" or "local override"
	ActiveVersion string `json:"active_version"`
	Warning       string `json:"warning,omitempty"`
}

// Catalog is the immutable set of active manifests, keyed by agent id.
type Catalog struct {
	byAgent map[string]*catalogEntry
	alias   map[string]string // manifest alias → agent id
}

type catalogEntry struct {
	manifest *Manifest
	info     ManifestInfo
}

// BundledManifests compiles the manifests embedded in the binary; a bundled
// manifest that fails to compile is a build defect and is returned as an error.
func BundledManifests() (map[string]*Manifest, error) {
	entries, err := fs.ReadDir(bundledFS, "manifests")
	if err != nil {
		return nil, fmt.Errorf("read bundled manifests: %w", err)
	}
	out := make(map[string]*Manifest, len(entries))
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".toml") {
			continue
		}
		data, err := bundledFS.ReadFile("manifests/" + name)
		if err != nil {
			errs = append(errs, fmt.Errorf("read bundled manifest %s: %w", name, err))
			continue
		}
		agent := strings.TrimSuffix(name, ".toml")
		m, err := Compile(data, SourceBundled)
		if err != nil {
			errs = append(errs, fmt.Errorf("bundled manifest %s: %w", name, err))
			continue
		}
		if !m.Matches(agent) {
			errs = append(errs, fmt.Errorf("bundled manifest %s: id %q does not match the file", name, m.ID()))
			continue
		}
		out[agent] = m
	}
	return out, errors.Join(errs...)
}

// LoadCatalog builds the catalog from the bundled manifests and the
// <overrideDir>/<agent>.toml overrides. An override wins when it compiles and
// its id or one of its aliases names the file's agent; otherwise the bundled
// manifest stays and a warning names the file and the error. An empty or
// missing overrideDir means no overrides.
func LoadCatalog(overrideDir string) (*Catalog, []Warning) {
	c := &Catalog{byAgent: map[string]*catalogEntry{}, alias: map[string]string{}}
	var warnings []Warning
	bundled, err := BundledManifests()
	if err != nil {
		warnings = append(warnings, Warning{Path: SourceBundled, Err: err})
	}
	for agent, m := range bundled {
		c.byAgent[agent] = &catalogEntry{manifest: m, info: ManifestInfo{
			Agent: agent, Source: SourceBundled, SourceKind: SourceBundled, ActiveVersion: m.Version(),
		}}
	}
	if overrideDir != "" {
		warnings = append(warnings, c.loadOverrides(overrideDir)...)
	}
	for agent, e := range c.byAgent {
		for _, a := range e.manifest.aliases {
			if a := Canonical(a); a != agent {
				if _, taken := c.byAgent[a]; !taken {
					c.alias[a] = agent
				}
			}
		}
	}
	return c, warnings
}

// maxManifestBytes bounds a manifest override: real ones are a few
// kilobytes. A device or a FIFO named *.toml is refused, never read or
// waited on.
const maxManifestBytes = 1 << 20

func (c *Catalog) loadOverrides(dir string) []Warning {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []Warning{{Path: dir, Err: fmt.Errorf("read override directory: %w", err)}}
	}
	var warnings []Warning
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".toml") {
			continue
		}
		path := filepath.Join(dir, name)
		agent := Canonical(strings.TrimSuffix(name, ".toml"))
		warn := func(err error) {
			w := Warning{Agent: agent, Path: path, Err: err}
			warnings = append(warnings, w)
			if ent, ok := c.byAgent[agent]; ok {
				ent.info.Warning = w.Error()
			}
		}
		data, err := protocol.ReadRegularFile(path, maxManifestBytes)
		if err != nil {
			warn(fmt.Errorf("read override: %w", err))
			continue
		}
		m, err := Compile(data, path)
		if err != nil {
			warn(err)
			continue
		}
		if !m.Matches(agent) {
			warn(fmt.Errorf("manifest id %q (aliases %v) does not match agent %q", m.ID(), m.aliases, agent))
			continue
		}
		c.byAgent[agent] = &catalogEntry{manifest: m, info: ManifestInfo{
			Agent: agent, Source: path, SourceKind: SourceLocal, ActiveVersion: m.Version(),
		}}
	}
	return warnings
}

// Get returns the active manifest for an agent id, alias or label.
func (c *Catalog) Get(agent string) (*Manifest, bool) {
	a := Canonical(agent)
	if e, ok := c.byAgent[a]; ok {
		return e.manifest, true
	}
	if id, ok := c.alias[a]; ok {
		return c.byAgent[id].manifest, true
	}
	return nil, false
}

// Infos describes every active manifest, sorted by agent.
func (c *Catalog) Infos() []ManifestInfo {
	out := make([]ManifestInfo, 0, len(c.byAgent))
	for _, e := range c.byAgent {
		out = append(out, e.info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Agent < out[j].Agent })
	return out
}
