package plugins

import (
	"reflect"
	"slices"
	"strings"
)

// ManifestKeys are the keys LoadManifest reads from herdr-plugin.toml:
// under "" the top-level keys that hold a value, and under each array of
// tables ("[[actions]]") the keys of its entries. They are drawn from the
// structs the decoder fills, so a key added there shows up here (and in
// the check that docs/plugins.md names every one).
func ManifestKeys() map[string][]string {
	keys := map[string][]string{}
	t := reflect.TypeFor[manifest]()
	for i := range t.NumField() {
		f := t.Field(i)
		name := tomlKey(f)
		ft := f.Type
		if ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
			table := "[[" + name + "]]"
			for j := range ft.Elem().NumField() {
				keys[table] = append(keys[table], tomlKey(ft.Elem().Field(j)))
			}
			continue
		}
		keys[""] = append(keys[""], name)
	}
	return keys
}

func tomlKey(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return name
}

// ActionContexts are the values an action's contexts may hold.
func ActionContexts() []string { return slices.Clone(contexts) }

// PanePlacements are the values a pane's placement may hold.
func PanePlacements() []string { return slices.Clone(placements) }

// Platforms are the values a platforms list may hold.
func Platforms() []string { return slices.Clone(platforms) }

// HookEventNames are the event names [[events]] hooks may run on, sorted.
func HookEventNames() []string { return hookEventNames() }
