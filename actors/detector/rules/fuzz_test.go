package rules

import (
	"testing"
)

func FuzzCompile(f *testing.F) {
	entries, _ := bundledFS.ReadDir("manifests")
	for _, e := range entries {
		data, _ := bundledFS.ReadFile("manifests/" + e.Name())
		f.Add(data)
	}
	f.Add([]byte(evalManifest))
	f.Add([]byte(header + ruleTOML("a", nested(MaxDepth+2))))
	f.Add([]byte(header + "[[rules]]\nid=\"a\"\nstate=\"idle\"\nregion=\"bottom_lines(99999999999999999999)\"\ncontains=[\"x\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Compile(data, "fuzz")
		if err != nil {
			if m != nil {
				t.Fatal("manifest returned with an error")
			}
			return
		}
		// A compiled manifest must evaluate any screen without panicking.
		m.Evaluate(Input{Lines: []string{string(data), "", "› x", "───", "❯", "───"}, Title: string(data), Progress: "4;0"})
	})
}
