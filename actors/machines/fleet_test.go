package machines

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Calls that come before machines.json is first read wait for it: a
// machine.list right after the server starts lists the saved machines
// (it answered an empty fleet before), and the calls are answered in the
// order they came.
func TestFleet_CallsBeforeTheFirstReadSeeTheSavedMachines(t *testing.T) {
	// Many machines, so that the first read takes a while after the
	// calls are sent; all disabled, so that nothing dials.
	const saved = 2000
	var b strings.Builder
	b.WriteString(`{"machines":[`)
	for i := range saved {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"m-%08x","label":"box%d","target":"box%d.example.com","enabled":false}`, i, i, i)
	}
	b.WriteString("]}")
	file := filepath.Join(t.TempDir(), "machines.json")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	system := actor.NewActorSystem()
	defer system.Shutdown()
	fleet := system.Root.Spawn(Props(Options{File: file, Reload: time.Hour}))

	const n = 20
	futures := make([]*actor.Future, n)
	for i := range futures { // sent at once: the first read is still on its goroutine
		futures[i] = system.Root.RequestFuture(fleet, &kit.Call{ID: string(rune('a' + i)), Method: "machine.list"}, 5*time.Second)
	}
	for i, fut := range futures {
		res, err := fut.Result()
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		r, ok := res.(*kit.Reply)
		if !ok || r.Err != nil {
			t.Fatalf("call %d: %#v", i, res)
		}
		list, ok := r.Result.(protocol.MachineList)
		if !ok || len(list.Machines) != saved || list.Machines[0].Label != "box0" {
			t.Fatalf("call %d: machine.list lists %d machines, want the %d saved", i, len(list.Machines), saved)
		}
	}
}
