package model

import "slices"

// MoveTo moves the element at from to index (clamped) and returns list.
// It edits list in place: callers in a transaction pass a copy.
func MoveTo[T any](list []T, from, index int) []T {
	x := list[from]
	list = slices.Delete(list, from, from+1)
	index = min(max(index, 0), len(list))
	return slices.Insert(list, index, x)
}
