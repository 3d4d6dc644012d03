// Package plugins is one area of the end-to-end suite (tests/doc.go):
// plugins: linking, manifests, actions, hooks, their panes
// and popups.
package plugins
