package review

import (
	"os"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }
