package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// MaxRegistryBytes bounds plugins.json: room for hundreds of plugins.
const MaxRegistryBytes = 16 << 20

// Registry is plugins.json: every linked plugin, sorted by id. Only the
// plugins actor touches it.
type Registry struct {
	path    string
	Plugins []protocol.InstalledPluginInfo
	// Refused says, per entry of the file left out, why: an entry whose
	// id is not a plugin id (".." would make the state folder herdr's
	// own) is never loaded, and is gone from the file at the next save.
	Refused []string
}

// OpenRegistry reads the registry at path (none yet is an empty one) and
// re-reads each plugin's manifest: a manifest that is gone or broken keeps
// its entry, with a warning saying why; an entry with a bad id is refused.
func OpenRegistry(path string) (*Registry, error) {
	r := &Registry{path: path, Plugins: []protocol.InstalledPluginInfo{}}
	data, err := protocol.ReadRegularFile(path, MaxRegistryBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, protocol.Errorf(protocol.CodePluginRegistryLoad, "read %s: %v", path, err)
	}
	var saved []protocol.InstalledPluginInfo
	if err := protocol.Unmarshal(data, &saved); err != nil {
		return r, protocol.Errorf(protocol.CodePluginRegistryLoad, "%s: %v", path, err)
	}
	for _, p := range saved {
		if err := CheckID(p.PluginID); err != nil {
			r.Refused = append(r.Refused, fmt.Sprintf("%s: entry refused: %s", path, protocol.AsError(err).Message))
			continue
		}
		fresh, err := LoadManifest(p.ManifestPath)
		if err != nil {
			p.Warnings = append(slices.DeleteFunc(p.Warnings, func(w string) bool { return strings.HasPrefix(w, "manifest unavailable: ") }),
				"manifest unavailable: "+protocol.AsError(err).Message)
			r.Plugins = append(r.Plugins, p)
			continue
		}
		fresh.Enabled, fresh.Source = p.Enabled, p.Source
		r.Plugins = append(r.Plugins, fresh)
	}
	r.sort()
	return r, nil
}

func (r *Registry) sort() {
	slices.SortFunc(r.Plugins, func(a, b protocol.InstalledPluginInfo) int { return strings.Compare(a.PluginID, b.PluginID) })
}

// Find is the plugin with id, or nil.
func (r *Registry) Find(id string) *protocol.InstalledPluginInfo {
	for i := range r.Plugins {
		if r.Plugins[i].PluginID == id {
			return &r.Plugins[i]
		}
	}
	return nil
}

// Put adds or replaces a plugin.
func (r *Registry) Put(p protocol.InstalledPluginInfo) {
	if old := r.Find(p.PluginID); old != nil {
		*old = p
		return
	}
	r.Plugins = append(r.Plugins, p)
	r.sort()
}

// Remove drops a plugin and reports whether it was there.
func (r *Registry) Remove(id string) bool {
	n := len(r.Plugins)
	r.Plugins = slices.DeleteFunc(r.Plugins, func(p protocol.InstalledPluginInfo) bool { return p.PluginID == id })
	return len(r.Plugins) != n
}

// Encode is the registry's file content.
func (r *Registry) Encode() ([]byte, error) {
	data, err := json.MarshalIndent(r.Plugins, "", "  ")
	return append(data, '\n'), err
}

// WriteRegistry writes data to path atomically, under the registry's lock
// file (another herdr writing the same registry waits up to a second; a
// lock left by a crash is taken over after ten).
func WriteRegistry(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return protocol.Errorf(protocol.CodePluginRegistrySave, "%v", err)
	}
	lock := filepath.Join(filepath.Dir(path), ".plugins.lock")
	deadline := time.Now().Add(time.Second)
	for {
		f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			break
		}
		if fi, serr := os.Stat(lock); serr == nil && time.Since(fi.ModTime()) > 10*time.Second {
			os.Remove(lock)
			continue
		}
		if time.Now().After(deadline) {
			return protocol.Errorf(protocol.CodePluginRegistrySave, "%s is locked by another herdr", path)
		}
		time.Sleep(20 * time.Millisecond) // waiting for the other writer's lock
	}
	defer os.Remove(lock)
	if err := protocol.WriteFileAtomic(path, data, 0o600); err != nil {
		return protocol.Errorf(protocol.CodePluginRegistrySave, "%v", err)
	}
	return nil
}

// Link reads the manifest at path into the entry plugin.link adds to a
// registry: enabled unless enabled says otherwise, with source (a local
// one when nil), and with its config and state folders made. The plugins
// actor and the CLI (with no server running) both link through it.
func Link(path string, enabled *bool, source *protocol.PluginSourceInfo, configDir, stateDir string) (protocol.InstalledPluginInfo, error) {
	info, err := LoadManifest(path)
	if err != nil {
		return info, err
	}
	if enabled != nil {
		info.Enabled = *enabled
	}
	if err := MakeDirs(configDir, stateDir, info.PluginID); err != nil {
		return info, protocol.Errorf(protocol.CodePluginRegistrySave, "plugin folders: %v", err)
	}
	info.Source = source
	if info.Source == nil {
		info.Source = &protocol.PluginSourceInfo{Kind: "local"}
	}
	return info, nil
}

// Dirs are a plugin's config and state folders, under the config and
// state directories.
func Dirs(configDir, stateDir, id string) (config, state string) {
	return filepath.Join(configDir, "plugins", "config", EscapeID(id)), filepath.Join(stateDir, "plugins", EscapeID(id))
}

// MakeDirs creates a plugin's config and state folders; a bad id makes
// none.
func MakeDirs(configDir, stateDir, id string) error {
	if err := CheckID(id); err != nil {
		return err
	}
	c, s := Dirs(configDir, stateDir, id)
	if err := os.MkdirAll(c, 0o700); err != nil {
		return err
	}
	return os.MkdirAll(s, 0o700)
}

// EscapeID makes a plugin id safe as a folder name: [a-z0-9._-] stay, every
// other byte is %XX.
func EscapeID(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
