// Package plugins will own plugin manifests (herdr-plugin.toml), the
// plugins.json registry and the environment and argv of plugin commands.
// Nothing is built here yet: the plugin.* methods answer not_implemented.
package plugins
