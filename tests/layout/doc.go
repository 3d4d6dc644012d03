// Package layout is one area of the end-to-end suite (tests/doc.go):
// layouts: splits, export and apply, ratios.
package layout
