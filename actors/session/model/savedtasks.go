package model

import "github.com/herdr-go/herdr/protocol"

// SavedTasks is session.json's "tasks" member: the task board, written
// from the tasks actor's snapshot (the session does not own tasks; the
// keeper adds them to each save). NextID is kept so ids are never reused.
type SavedTasks struct {
	NextID uint64              `json:"next_id"`
	Tasks  []protocol.TaskInfo `json:"tasks"`
}
