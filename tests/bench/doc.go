// Package bench holds the side-by-side throughput and memory benchmarks of
// the terminal path (herdr's emulator against a bare PTY drain and tmux).
// throughput.sh drives them (the floor, the emulator alone, tmux, this
// tree's herdr and, with OLD_HERDR, an older build, taking turns round
// after round, each time divided by the floor's of its round, with each
// herdr server's CPU and the load); benchpair.sh compares one Go benchmark in two
// test binaries (old and new code) taking turns, and seq_ab.sh two herdr
// builds and tmux on one flood; the Go helpers live in
// sub-directories:
//
//   - ptydrain: runs a command in a 200×50 PTY and reads it to the end,
//     either only reading (the floor) or feeding every chunk into an
//     emulator.Terminal (herdr's pane path without the socket);
//   - scrollrss: fills one emulator with scrollback and prints the memory
//     it costs, then what it costs compacted as a quiet pane's is;
//   - gaps: the rows where tmux is the anchor and cost, not throughput,
//     is measured, side by side in one run: idle memory and threads per
//     pane, one command as one process, pipelined requests, a typed
//     command until a waiting program sees its output (match),
//     keystroke → echo through an attached client (keys), a no-op
//     request's round trip while 100 panes flood (flood), a flood's
//     slowdown with 10 watching clients (subs), and the server's RSS after
//     100 panes each filled their scrollback (scroll); idle and flood start
//     servers of their own (the idle row's in-process twin, which the
//     machine's load does not move, is actors/server's
//     BenchmarkIdlePane_Heap: live heap, objects and stacks per added tab);
//   - soak: runs a real server under churn (panes created and closed,
//     floods, subscribers and screen streams coming and going) for a
//     while and checks that its memory, threads and descriptors come back.
package bench
