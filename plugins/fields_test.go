package plugins

import (
	"slices"
	"testing"
)

// ManifestKeys is the decoder's own keys: a top-level value, an array of
// tables and a key of its entries, and no key without a toml name.
func TestManifestKeysAreTheDecodersKeys(t *testing.T) {
	keys := ManifestKeys()
	if !slices.Contains(keys[""], "min_herdr_version") || slices.Contains(keys[""], "actions") {
		t.Fatalf("top-level keys %v", keys[""])
	}
	if !slices.Contains(keys["[[panes]]"], "placement") || !slices.Contains(keys["[[link_handlers]]"], "pattern") {
		t.Fatalf("table keys %v", keys)
	}
	if len(keys) != 7 {
		t.Fatalf("%d groups of keys, want the top level and 6 arrays of tables: %v", len(keys), keys)
	}
	for group, names := range keys {
		if slices.Contains(names, "") {
			t.Fatalf("%q has a key with no toml name: %v", group, names)
		}
	}
}
