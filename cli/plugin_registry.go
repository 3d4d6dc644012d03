package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/herdr-go/herdr/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// The plugin commands that manage the registry (link, list, install,
// uninstall) work with no server running: they read and write
// plugins.json themselves, and a server started later loads it.

// serverListening reports whether a server listens at the selected
// session's socket. A socket that cannot be resolved is an error printed
// under id (code 1); a listener that exists but will not answer counts as
// listening, so the request itself reports what is wrong.
func (a *app) serverListening(id string) (listening bool, code int) {
	sock, err := a.socket()
	if err != nil {
		return false, a.fail(id, err)
	}
	c, err := protocol.Dial(sock, 250*time.Millisecond)
	if err == nil {
		c.Close()
		return true, 0
	}
	return !protocol.IsNotRunning(err), 0
}

func (a *app) registryPath() string { return filepath.Join(protocol.ConfigDir(a.env), "plugins.json") }

// openRegistry opens the registry file, saying on stderr which of its
// entries were refused (and are dropped at the next write).
func (a *app) openRegistry() (*plugins.Registry, error) {
	reg, err := plugins.OpenRegistry(a.registryPath())
	for _, why := range reg.Refused {
		fmt.Fprintf(a.stderr, "herdr: %s\n", protocol.Printable(why))
	}
	return reg, err
}

// linkInRegistry links the plugin whose manifest is at path in the
// registry file, as plugin.link would in a server.
func (a *app) linkInRegistry(path string, enabled *bool, source *protocol.PluginSourceInfo) (protocol.InstalledPluginInfo, error) {
	info, err := plugins.Link(path, enabled, source, protocol.ConfigDir(a.env), protocol.StateDir(a.env))
	if err != nil {
		return info, err
	}
	reg, err := a.openRegistry()
	if err != nil {
		return info, err
	}
	reg.Put(info)
	data, err := reg.Encode()
	if err != nil {
		return info, protocol.Errorf(protocol.CodePluginRegistrySave, "encode %s: %v", a.registryPath(), err)
	}
	return info, plugins.WriteRegistry(a.registryPath(), data)
}

// listRegistry is plugin.list answered from the registry file: every
// plugin, or the one with pluginID, manifests re-read as a server would.
func (a *app) listRegistry(pluginID *string) (protocol.PluginList, error) {
	reg, err := a.openRegistry()
	if err != nil {
		return protocol.PluginList{}, err
	}
	out := protocol.PluginList{Plugins: []protocol.InstalledPluginInfo{}}
	for _, pl := range reg.Plugins {
		if pluginID == nil || *pluginID == pl.PluginID {
			out.Plugins = append(out.Plugins, pl)
		}
	}
	return out, nil
}

// printResult prints a result as the response line a server would send
// for id; an error goes to stderr as an error line.
func (a *app) printResult(id string, r protocol.Result, err error) int {
	if err != nil {
		return a.fail(id, err)
	}
	line, err := protocol.EncodeSuccess(id, r)
	if err != nil {
		return a.fail(id, protocol.Errorf(protocol.CodeInternal, "encode %s: %v", id, err))
	}
	fmt.Fprintf(a.stdout, "%s\n", line)
	return 0
}
