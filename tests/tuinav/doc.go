// Package tuinav is one area of the end-to-end suite (tests/doc.go):
// the interactive client's navigation, menus, sidebar panels,
// options and notifications.
package tuinav
