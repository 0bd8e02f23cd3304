package peg

import "github.com/peguri/rfc3986/syntax"

// Test hooks: the interpreter, for tests in package peg_test.

type PegProgram = pegProgram

var LoadPEG = loadPEG

func (p *pegProgram) Parse(entry string, in []byte) bool { return p.parse(entry, in) }

// Run parses with the network of a translation that has fallbacks.
func (p *pegProgram) Run(entry string, in []byte, res *Result) (bool, error) {
	if res.Octets {
		in = latin1(in)
	}
	p.guards = res.guards
	ok, _, err := p.run(entry, in, res.net, nil)
	return ok, err
}

// SetLockstepMin sets the number of alternatives from which the report
// searches overlaps all at once, and returns the old value.
func SetLockstepMin(k int) int { old := lockstepMin; lockstepMin = k; return old }

// GuideRun parses with the networks of a translation (its exact guards'
// and its fallbacks') and a guide and lookahead of the given budget each,
// and returns the interpreter's steps and those of the guide and the
// lookahead together.
func (p *pegProgram) GuideRun(entry string, in []byte, res *Result, budget int) (ok bool, pegSteps, steps int, err error) {
	if res.Octets {
		in = latin1(in)
	}
	m := &pm{prog: p, in: in}
	if res.net != nil {
		m.guide = syntax.NewGuide(res.net, in, budget)
	}
	if res.guards != nil {
		m.look = syntax.NewLookahead(res.guards, in, budget)
	}
	_, ok = m.match(&pRef{name: entry}, 0)
	if err = m.guide.Err(); res.net == nil {
		err = nil
	}
	if m.look != nil && m.look.Err() != nil {
		err = m.look.Err()
	}
	return ok && err == nil, m.steps, m.guide.Steps() + m.look.Steps(), err
}
