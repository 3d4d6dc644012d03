//go:build !linux

package fleet

// QuietProcessSampler does nothing here. On Linux it ends nats-server's
// once-a-second process sampler (sampler_linux.go); on macOS that sampler
// cannot be stopped from outside, so a process linking nats-server wakes
// once a second there; Windows has none.
func QuietProcessSampler() {}

func resumeProcessSampler() {}
