// Package loop tests the agent loop end to end (issue 49): queued
// prompts typed into a fake agent one per finished turn, in order, once,
// kept across a restart; the inbox answering a blocked fake agent only
// while it asks the same question; the [notify] webhook posted to a real
// local HTTP server, bounded per minute. The fake agents are shell
// scripts named claude that draw Claude Code's screens.
package loop
