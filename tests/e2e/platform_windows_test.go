package e2e

import (
	"errors"
)

func processAlive(int) error { return errors.New("not checked on windows") }
