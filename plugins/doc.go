// Package plugins holds what a plugin is, apart from the actor that runs
// it (actors/plugins): herdr-plugin.toml manifests parsed with go-toml/v2
// and validated with Herdr's error codes, the plugins.json registry
// (sorted, locked, written atomically), and running one plugin command as
// argv — never a shell — with bounded output and a timeout that kills its
// whole process group.
package plugins
