// Package plugins is Herdr's plugin system: herdr-plugin.toml manifests
// (parsed and validated with Herdr's error codes), the plugins.json
// registry, and the plugins actor, which answers the plugin.* methods and
// runs plugin commands — actions, [[events]] hooks on matching bus events,
// [[startup]] hooks — as argv (never a shell) on goroutines of its own,
// with the runtime environment and context JSON plugins rely on, bounded
// output, a cap on commands in flight, a timeout that kills a hung
// command's whole process group, and a log of recent runs.
package plugins
