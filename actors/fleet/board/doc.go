// Package board is the fleet task board (issue 48, item 4): tasks every
// member of a fleet can see and take, held in JetStream, with each claim
// a lease its member keeps alive, so a member that dies loses its tasks
// to another after the lease's TTL and no task ever has two workers.
//
// Key-value with compare-and-set, not a work-queue stream. A work queue
// hands a message to one consumer and forgets it once acknowledged, and
// redelivers it after an ack wait: that is a lease, but the board is more
// than the queue. A task lives on after it is taken (running, blocked,
// review, done, failed), its activities grow, task.list and the boards
// show every task with the member running it, and a claim must check the
// member's labels against the task's requires. In a KV bucket each task is
// one key whose value is the whole task (the shape of protocol.TaskInfo,
// plus requires and worker.machine), every change is an Update on the
// revision that was read, and of two members changing a task from the
// same revision exactly one wins (the other gets a revision mismatch and
// reads again). That one rule gives: at most one claim of a ready task,
// renewals only by the lease's holder (its token), and a lost lease
// released once however many members sweep.
//
// On a clustered hub (Replicas 3) the bucket's reads go to its stream's
// leader, not to any replica (Open turns direct gets off): a replica may
// lag a write just acknowledged, and a member would then miss a task
// another just created or claim from a stale revision.
//
// Keys: task.<id> (the task), next (the number of the next task id, bumped
// by CAS), clock (written by a sweep to read the hub's time).
//
// Leases. Claim moves a ready task to running with a Worker naming the
// member (machine), a random token and the TTL. The holder renews (Renew,
// every TTL/3 is right), and every write to a held task is its holder's
// (claim, renew, report); so the entry's store time, stamped by the hub,
// is the lease's last renewal. Sweep, which every member's dispatcher runs
// (there is no leader to lose), reads the hub's clock (it writes the clock
// key and reads back its time, so members' clocks never matter) and moves
// every held task whose last renewal is older than its TTL back to ready,
// with an activity naming the lost worker; it does so by CAS on the
// revision it judged, so a renewal that came in between wins and two
// sweepers cannot release one task twice. A sweeper judges no lease
// before it has itself been connected for that lease's TTL (since it
// opened the board or last reconnected), so a hub restart or a partition
// that healed costs no live member its tasks: each had a full TTL to
// renew first. A holder whose lease went finds
// out at its next Renew or Report (ErrLeaseLost) and must stop the work.
// The lease returning a task to ready is this board's one move outside
// protocol's state machine (running→ready): the task is not failed, its
// worker is.
//
// Claiming: ClaimNext lists the board and claims the first ready task the
// member may take; it is stateless and costs a listing per claim (a
// consumer on the bucket, so tens of milliseconds on a board of hundreds).
// A dispatcher that claims often keeps its view with Watch instead and
// claims from it with ClaimFirst (a claim is then a read and a CAS write:
// a p50 under a millisecond alone and about 2 ms with 16 members racing
// for the same tasks, on a local hub; board_bench_test.go measures both,
// ClaimRace being ClaimFirst's cost). A stale view costs nothing but a lost race: every claim reads
// the task afresh.
//
// No actor code and no server wiring: every call does network I/O and
// waits for the hub, so the fleet actor calls it from a goroutine that
// sends the result back to its Receive.
package board
