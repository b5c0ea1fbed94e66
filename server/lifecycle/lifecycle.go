// Package lifecycle is the one state machine of every resource with a status: a table of moves, the
// no-op rule for same-state moves, and the 409 that names what is allowed.
package lifecycle

import (
	"sort"
	"strings"

	"github.com/catalogd/catalogd/server/apierr"
)

// Move is one transition: the states it may start from and the state it leads to.
type Move struct {
	From []string
	To   string
	// Event is the event verb of the move (published, removed, ...).
	Event string
}

// Machine is a resource's table of moves, keyed by transition name.
type Machine struct {
	Kind  string
	Moves map[string]Move
}

// Result of applying a transition to one resource.
type Result struct {
	To      string
	Changed bool
	Event   string
}

// Apply checks transition t from state cur. A move whose target is the current state is a no-op
// success; a move not allowed from cur is INVALID_TRANSITION naming the current status and the
// transitions allowed from it.
func (m Machine) Apply(cur, t string) (Result, error) {
	mv, ok := m.Moves[t]
	if !ok {
		return Result{}, apierr.Field("transition", "must be one of "+strings.Join(m.Transitions(), ", "))
	}
	if mv.To == cur {
		return Result{To: cur}, nil
	}
	for _, f := range mv.From {
		if f == cur {
			return Result{To: mv.To, Changed: true, Event: mv.Event}, nil
		}
	}
	return Result{}, m.Refuse(cur, "transition %s is not allowed from status %s; allowed transitions: %s", t, cur, orNone(m.AllowedFrom(cur))).
		WithMeta("transition", t)
}

// Refuse is the 409 INVALID_TRANSITION of a resource in status cur, with a formatted detail and
// the meta every INVALID_TRANSITION carries: currentStatus (string) and allowedTransitions (the
// transitions that change cur, an array, empty when none).
func (m Machine) Refuse(cur, format string, args ...any) *apierr.Error {
	allowed := m.AllowedFrom(cur)
	if allowed == nil {
		allowed = []string{}
	}
	return apierr.New(apierr.InvalidTransition, format, args...).
		WithMeta("currentStatus", cur).WithMeta("allowedTransitions", allowed)
}

// Transitions lists every transition name, sorted.
func (m Machine) Transitions() []string {
	out := make([]string, 0, len(m.Moves))
	for k := range m.Moves {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// States lists every status a transition leads to, sorted.
func (m Machine) States() []string {
	seen := map[string]bool{}
	var out []string
	for _, mv := range m.Moves {
		if !seen[mv.To] {
			seen[mv.To] = true
			out = append(out, mv.To)
		}
	}
	sort.Strings(out)
	return out
}

// Path is the shortest chain of transitions from status cur to status want (the first in the
// transitions' sorted order among chains of one length); nil when there is none. known reports
// whether want is a status of the machine at all.
func (m Machine) Path(cur, want string) (path []string, known bool) {
	for _, mv := range m.Moves {
		known = known || mv.To == want
	}
	if !known || cur == want {
		return nil, known
	}
	prev := map[string][]string{cur: {}}
	frontier := []string{cur}
	for len(frontier) > 0 {
		var next []string
		for _, s := range frontier {
			for _, t := range m.AllowedFrom(s) {
				to := m.Moves[t].To
				if _, seen := prev[to]; seen {
					continue
				}
				prev[to] = append(append([]string{}, prev[s]...), t)
				if to == want {
					return prev[to], true
				}
				next = append(next, to)
			}
		}
		frontier = next
	}
	return nil, true
}

// AllowedFrom lists the transitions that change state cur.
func (m Machine) AllowedFrom(cur string) []string {
	var out []string
	for _, t := range m.Transitions() {
		for _, f := range m.Moves[t].From {
			if f == cur {
				out = append(out, t)
			}
		}
	}
	return out
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
