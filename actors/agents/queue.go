package agents

// QueueLengths tells the agents actor how many prompts each terminal's
// agent has queued (the loop actor's agent.queue.*), every terminal with
// a queue each time: the agent record shows it as queue_length.
type QueueLengths struct {
	ByTerm map[string]int
}

// queueLengths keeps the new lengths and re-sends the records whose
// length changed.
func (a *Agents) queueLengths(msg *QueueLengths) {
	old := a.queued
	a.queued = msg.ByTerm
	for term, r := range a.recs {
		if old[term] != a.queued[term] {
			a.touch(r)
		}
	}
}
