package peg

// Test hooks: the interpreter, for tests in package peg_test.

type PegProgram = pegProgram

var LoadPEG = loadPEG

func (p *pegProgram) Parse(entry string, in []byte) bool { return p.parse(entry, in) }

// Run parses with the network of a translation that has fallbacks.
func (p *pegProgram) Run(entry string, in []byte, res *Result) (bool, error) {
	if res.Octets {
		in = latin1(in)
	}
	ok, _, err := p.run(entry, in, res.net, nil)
	return ok, err
}

// SetLockstepMin sets the number of alternatives from which the report
// searches overlaps all at once, and returns the old value.
func SetLockstepMin(k int) int { old := lockstepMin; lockstepMin = k; return old }
