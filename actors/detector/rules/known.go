package rules

// Known reports whether label names (or aliases) an agent herdr recognises
// by its process, as opposed to a custom label a hook made up.
func Known(label string) bool { return knownAgents[Canonical(label)] }
