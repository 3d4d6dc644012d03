// Package plugins holds what a plugin is, apart from the actor that runs
// it (actors/plugins): herdr-plugin.toml manifests parsed with go-toml/v2
// and validated with Herdr's error codes (a plugin id is a safe folder
// name) and warnings (an [[events]] on that is no event hooks run on
// links, with a warning), the plugins.json
// registry (sorted, locked, written atomically; an entry with a bad id is
// refused), both read bounded and regular-only, and running one plugin
// command as argv — never a shell — with bounded output, in a session and
// process group of its own that is killed when the command exits, at its
// timeout, or on Kill. While it runs it is recorded (Job.Records: leader
// pid, start stamp, a token its processes inherit), so the next server
// of a server killed -9 ends what it left (EndLeftRuns, leftruns.go). ManifestKeys and the value lists (ActionContexts, ...) say
// what the parser accepts, so docs/plugins.md is checked against them.
package plugins
