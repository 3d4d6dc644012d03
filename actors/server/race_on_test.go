//go:build race

package server

// raceDetector: the race detector is on, and the heap it reports includes
// its own bookkeeping, so heap bounds do not hold under it.
const raceDetector = true
