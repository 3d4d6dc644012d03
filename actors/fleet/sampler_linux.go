package fleet

import (
	"fmt"
	"os"
	_ "unsafe" // go:linkname

	_ "github.com/nats-io/nats-server/v2/server/pse"
)

// procStatFile is the file nats-server's process sampler (server/pse)
// reads once a second, from a timer its init starts in every process that
// links it, a hub or not; periodic is that timer's function.
//
//go:linkname procStatFile github.com/nats-io/nats-server/v2/server/pse.procStatFile
var procStatFile string

//go:linkname periodic github.com/nats-io/nats-server/v2/server/pse.periodic
func periodic()

// QuietProcessSampler ends that once-a-second timer: the sampler stops
// rescheduling itself when its read fails. herdr-full calls it first
// thing, so the interactive client and a server without a hub sleep when
// idle; a hub starts it again (resumeProcessSampler), since only a hub
// reports what it samples (its CPU and memory in NATS's monitoring).
func QuietProcessSampler() { procStatFile = "" }

// resumeProcessSampler restarts the sampler for a hub.
func resumeProcessSampler() {
	if procStatFile == "" {
		procStatFile = fmt.Sprintf("/proc/%d/stat", os.Getpid())
		periodic()
	}
}
