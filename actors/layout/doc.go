// Package layout is the binary space partition of a tab: panes are leaves,
// splits divide a rectangle right (side by side) or down (stacked) at a
// ratio. It is plain data owned by the session actor; it computes rectangles
// and never touches a terminal.
package layout
