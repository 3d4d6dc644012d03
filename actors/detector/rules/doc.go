// Package rules decides which coding agent runs in a pane and what that
// agent is doing, from what it shows on screen.
//
// It owns three pure pieces: process recognition (Recognize, Canonical),
// the screen-rule manifests in Herdr's TOML format (Compile, Manifest,
// Evaluate) and the catalog of bundled manifests plus local overrides
// (LoadCatalog). Nothing here keeps mutable state: a compiled Manifest and a
// Catalog are immutable once built and may be shared by any number of
// detector actors. The only I/O is reading override files in LoadCatalog.
package rules
