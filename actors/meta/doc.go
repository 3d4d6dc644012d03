// Package meta holds the bookkeeping of hook-reported metadata shared by the
// actors that accept reports: a per-source sequence book that drops
// out-of-order reports, and a token set whose entries may expire by TTL
// generation. It has no actor code.
package meta
