package abnf

// SlowMatch is the reference matcher of slow_test.go, for the external
// tests: it refuses left recursion.
func SlowMatch(g *Grammar, rule string, input []byte) (bool, error) {
	m, err := newSlowMatcher(g)
	if err != nil {
		return false, err
	}
	return m.Match(rule, input)
}

// NewSlowMatcher returns the reference matcher's Match method.
func NewSlowMatcher(g *Grammar) (func(rule string, input []byte) (bool, error), error) {
	m, err := newSlowMatcher(g)
	if err != nil {
		return nil, err
	}
	return m.Match, nil
}

// ForceEarley makes m use the general recognizer even for programs the
// NFA simulation could run, so that tests cover both on the same grammars.
func ForceEarley(m *Matcher) {
	m.mu.Lock()
	m.noNFA = true
	m.mu.Unlock()
}

// SetLimits sets the compiler's inlineLimit and unrollLimit for m, before
// its first match: with zeros, every reference that is not a character class
// is a call and every repetition but * is a counted loop.
func SetLimits(m *Matcher, inline, unroll int) {
	m.mu.Lock()
	m.inlineMax, m.unrollMax = inline, unroll
	m.mu.Unlock()
}

// MatchSteps is m.Match that also returns the number of automaton states
// and Earley items visited: a measure of work that, unlike time, tests can
// compare exactly.
func MatchSteps(m *Matcher, rule string, input []byte) (bool, int, error) {
	p, err := m.prog(rule, input)
	if err != nil {
		return false, 0, err
	}
	r := m.getRun()
	defer m.pool.Put(r)
	ok := r.run(p, input, m.g.Octets, nil, m.budget(len(input)))
	return ok, r.steps, nil
}

// Simple reports whether rule compiles to a program without calls and
// counters, which the NFA simulation runs.
func Simple(m *Matcher, rule string) bool {
	p, err := m.prog(rule, nil)
	return err == nil && p.simple
}

// SamplerWork is the work s has done: nodes costed and visited, in all.
func SamplerWork(s *Sampler) int { return s.work }

// AnalysisSize is the size of the expression graph Analyze solved on:
// vertices and production arguments.
func AnalysisSize(a *Analysis) int { return a.eg.nvert + len(a.eg.args) }
