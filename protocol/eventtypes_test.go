package protocol

import "testing"

// TestEventTypes_CoverEveryKind: every lifecycle kind has its data type,
// which reports that kind, and nothing else is listed.
func TestEventTypes_CoverEveryKind(t *testing.T) {
	types := EventTypes()
	if len(types) != len(LifecycleKinds) {
		t.Errorf("%d event types for %d kinds", len(types), len(LifecycleKinds))
	}
	for _, k := range LifecycleKinds {
		if d, ok := types[k]; !ok || d.EventKind() != k {
			t.Errorf("kind %s: type %T", k, d)
		}
	}
}
