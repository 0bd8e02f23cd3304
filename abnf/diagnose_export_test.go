package abnf

// DiagnoserSteps returns the threads d has expanded so far: the work it
// did, which the tests bound instead of its time.
func DiagnoserSteps(d *Diagnoser) int { return d.steps }
