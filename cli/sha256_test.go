package cli

import (
	"crypto/sha256"
	"math/rand/v2"
	"testing"
)

// The plugin folder's digest is crypto/sha256's on every length around the
// block and padding edges, and on random bytes.
func TestSHA256Sum_AsCryptoSHA256(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 300; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if got, want := sha256Sum(b), sha256.Sum256(b); got != want {
			t.Fatalf("%d bytes: %x, want %x", n, got, want)
		}
	}
}
