// Package play is the playground's engine: what the page asks and what it
// shows, computed with gen's packages and the URI library, in plain Go so
// that it is tested natively and compiled unchanged to WebAssembly. Every
// answer is a JSON-ready value; no function panics on any input (a panic
// below is recovered and reported as an internal error).
package play

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/dfa"
	"github.com/peguri/rfc3986/gen/peg"
	"github.com/peguri/rfc3986/grammar"
)

// Limits of the playground. gen's own defaults hold for the grammar
// stages, except the PEG translator's search budgets, lowered so that a
// pasted grammar gets its answer in seconds in a browser tab (WebAssembly
// runs the proofs about five times slower than native code). A spent
// budget costs proofs, never exactness: the report then says which
// decisions are settled by the exact recognizer at parse time.
const (
	InlineWork = 100_000_000
	TotalWork  = 200_000_000
	// Witnesses is the number of samples per start rule searched for a
	// witness of each fallback decision, as gen peg -witnesses.
	Witnesses = 200
	// MaxInputs and MaxInputLen bound the inputs given to the matcher.
	MaxInputs   = 2000
	MaxInputLen = 1 << 20
	// MaxGrammar bounds the grammar text.
	MaxGrammar = 4 << 20
)

// SourceName is the name positions give the pasted grammar.
const SourceName = "input.abnf"

// GrammarRequest is what the ABNF tab sends.
type GrammarRequest struct {
	// Base, if not empty, names embedded grammars (grammar.Names) read
	// before Text, as gen's -grammar rfc3986 -grammar FILE does: RFC 6874
	// and RFC 3987 are read after Appendix A.
	Base []string `json:"base"`
	// Name is the source name of Text in positions; empty means
	// SourceName.
	Name   string `json:"name"`
	Text   string `json:"text"`
	Octets bool   `json:"octets"`
	// Start is the start rule whose translation, DFA and verdicts are
	// shown; empty means the first possible start rule.
	Start string `json:"start"`
	// Inputs are the matcher's inputs, one per line, as gen match reads
	// them (raw: every line is an input, a trailing CR included; the
	// final line break does not begin an empty input).
	Inputs string `json:"inputs"`
	// Quoted: every input line is a Go double-quoted string, as gen match
	// -quoted reads them, so that inputs may hold CR, LF and any byte.
	Quoted bool `json:"quoted"`
	// Peg asks for the translation report (gen peg -report).
	Peg bool `json:"peg"`
	// FullBudget gives the translator gen peg's default search budgets
	// instead of the playground's (InlineWork, TotalWork).
	FullBudget bool `json:"fullBudget"`
	// Samples asks for that many samples of the start rule and as many
	// near-misses (gen sample, gen sample -near), with seed Seed.
	Samples int    `json:"samples"`
	Seed    uint64 `json:"seed"`
}

// Position is a place in a source: file:line:col, and whether it is in
// the pasted text (which the page can then select).
type Position struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Offset int    `json:"offset"`
	InText bool   `json:"inText"`
}

func (p Position) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Message is one error, warning or note, at a position.
type Message struct {
	Pos      Position `json:"pos"`
	Severity string   `json:"severity"` // error, warning, note
	Msg      string   `json:"msg"`
	Text     string   `json:"text"` // as gen prints it
}

// RuleInfo is one rule of the grammar, as gen check lists it.
type RuleInfo struct {
	Name     string   `json:"name"`
	Pos      Position `json:"pos"`
	Tags     []string `json:"tags,omitempty"`
	Root     bool     `json:"root"`    // no rule references it
	Regular  bool     `json:"regular"` // reaches no self-embedding recursion
	Core     bool     `json:"core"`
	Nullable bool     `json:"nullable"`
}

// Verdict is the matcher's answer on one input line.
type Verdict struct {
	Line  int    `json:"line"`
	Input string `json:"input"`
	Match bool   `json:"match"`
	Err   string `json:"err,omitempty"`
}

// DFAInfo is the DFA gen dfa builds for a regular start rule.
type DFAInfo struct {
	Rule      string   `json:"rule"`
	NFAStates int      `json:"nfaStates"`
	DFAStates int      `json:"dfaStates"` // after subset construction
	States    int      `json:"states"`    // minimal, the dead state not counted
	Classes   int      `json:"classes"`
	Recursive []string `json:"recursive,omitempty"`
	Err       string   `json:"err,omitempty"`
}

// PegInfo is the translation of the start rule (gen peg -report).
type PegInfo struct {
	Err        string      `json:"err,omitempty"`
	Text       string      `json:"text"` // the report as gen peg -report prints it
	PEG        string      `json:"peg"`
	Starts     []StartInfo `json:"starts"`
	Rules      int         `json:"rules"`
	Variants   int         `json:"variants"`
	Guards     int         `json:"guards"`
	Proven     int         `json:"proven"`
	Guarded    int         `json:"guarded"`
	Fallbacks  int         `json:"fallbacks"`
	Work       int         `json:"work"`
	Rewrites   []PegItem   `json:"rewrites"`
	Decisions  []PegItem   `json:"decisions"`
	Warnings   []string    `json:"warnings"`
	InlineWork int         `json:"inlineWork"`
	TotalWork  int         `json:"totalWork"`
}

// StartInfo is one start rule of a translation.
type StartInfo struct {
	Rule  string `json:"rule"`
	Entry string `json:"entry"`
	Mode  string `json:"mode"`
}

// PegItem is one rewrite or decision of the translation.
type PegItem struct {
	Rule    string   `json:"rule"`
	Pos     Position `json:"pos"`
	Kind    string   `json:"kind"`
	Msg     string   `json:"msg"`
	Example string   `json:"example,omitempty"`
	Witness string   `json:"witness,omitempty"`
	Count   int      `json:"count"`
}

// GrammarResult is what the ABNF tab shows.
type GrammarResult struct {
	// Errors are the reader's (syntax, duplicates, undefined rules); with
	// any, nothing else is computed.
	Errors []Message `json:"errors"`
	// Rules, Roots and Problems are gen check's analysis.
	Rules    []RuleInfo `json:"rules"`
	Roots    []string   `json:"roots"`
	Problems []Message  `json:"problems"`
	// Clean is true when the grammar has no error, so that it can be
	// translated and matched.
	Clean bool `json:"clean"`
	// Start is the start rule the rest is about.
	Start   string `json:"start"`
	Regular bool   `json:"regular"`
	// RegularKnown is false when gen dfa refused the grammar (DFAErr says
	// why): no rule is then known to be regular or not.
	RegularKnown bool      `json:"regularKnown"`
	DFAErr       string    `json:"dfaErr,omitempty"`
	Verdicts     []Verdict `json:"verdicts"`
	InputErr     string    `json:"inputErr,omitempty"`
	DFA          *DFAInfo  `json:"dfa,omitempty"`
	// Samples are the samples and near-misses asked for.
	Samples   []Sample `json:"samples,omitempty"`
	SampleErr string   `json:"sampleErr,omitempty"`
	Peg       *PegInfo `json:"peg,omitempty"`
	// Millis is the time each stage took, in milliseconds.
	Millis map[string]float64 `json:"millis"`
}

// Grammars returns the embedded grammars by name (rfc3986, rfc6874,
// rfc3987) with their source names and text.
func Grammars() []EmbeddedGrammar {
	var out []EmbeddedGrammar
	for _, n := range grammar.Names() {
		src, ok := grammar.Lookup(n)
		if !ok {
			continue
		}
		out = append(out, EmbeddedGrammar{Name: n, File: src.Name, Text: string(src.Text)})
	}
	return out
}

// EmbeddedGrammar is one grammar of package grammar.
type EmbeddedGrammar struct {
	Name string `json:"name"`
	File string `json:"file"`
	Text string `json:"text"`
}

// Grammar reads, checks, translates and matches, as gen check, gen peg
// -report, gen dfa -report and gen match do.
func Grammar(req GrammarRequest) (res *GrammarResult) {
	res = &GrammarResult{Errors: []Message{}, Rules: []RuleInfo{}, Roots: []string{}, Problems: []Message{}, Verdicts: []Verdict{}, Millis: map[string]float64{}}
	defer func() {
		if p := recover(); p != nil {
			res.Errors = append(res.Errors, Message{Severity: "error", Msg: fmt.Sprintf("internal error: %v", p), Text: fmt.Sprintf("internal error: %v", p)})
			res.Clean = false
		}
	}()
	name := req.Name
	if name == "" {
		name = SourceName
	}
	if len(req.Text) > MaxGrammar {
		res.Errors = append(res.Errors, message(abnf.Pos{File: name, Line: 1, Col: 1}, name, "error", fmt.Sprintf("the grammar is %d bytes, more than the playground's %d", len(req.Text), MaxGrammar)))
		return res
	}
	var srcs []abnf.Source
	for _, b := range req.Base {
		src, ok := grammar.Lookup(b)
		if !ok {
			res.Errors = append(res.Errors, message(abnf.Pos{}, name, "error", fmt.Sprintf("no embedded grammar %q (have %s)", b, strings.Join(grammar.Names(), ", "))))
			return res
		}
		srcs = append(srcs, src)
		if src.Name == name {
			// The pasted text must be told from the base in positions.
			name = SourceName
		}
	}
	srcs = append(srcs, abnf.Source{Name: name, Text: []byte(req.Text)})

	t := time.Now()
	g, err := abnf.Read(srcs, &abnf.Options{Octets: req.Octets})
	res.Millis["read"] = ms(t)
	if err != nil {
		var el abnf.ErrorList
		if !errors.As(err, &el) {
			res.Errors = append(res.Errors, message(abnf.Pos{}, name, "error", err.Error()))
			return res
		}
		for _, e := range el {
			res.Errors = append(res.Errors, message(e.Pos, name, "error", e.Msg))
		}
		return res
	}

	// gen check: the rules, the possible start rules, the problems.
	t = time.Now()
	a := abnf.Analyze(g)
	roots := map[string]bool{}
	for _, r := range abnf.Roots(g) {
		res.Roots = append(res.Roots, r.Name)
		roots[r.Name] = true
	}
	for _, r := range g.Rules {
		info := RuleInfo{Name: r.Name, Pos: position(r.Pos, name), Root: roots[r.Name], Core: r.Core, Nullable: a.RuleNullable(r)}
		if r.Core {
			info.Tags = append(info.Tags, "core")
		}
		if info.Nullable {
			info.Tags = append(info.Tags, "nullable")
		}
		for _, d := range r.Defs[1:] {
			if d.Override {
				info.Tags = append(info.Tags, "overridden at "+d.Pos.String())
			} else {
				info.Tags = append(info.Tags, "=/ at "+d.Pos.String())
			}
		}
		res.Rules = append(res.Rules, info)
	}
	start := ""
	if req.Start != "" {
		if r := g.Rule(req.Start); r != nil {
			start = r.Name
		}
	}
	if start == "" && len(res.Roots) > 0 {
		start = firstOwnRoot(g, name, res.Roots)
		if req.Start != "" {
			res.Problems = append(res.Problems, message(abnf.Pos{}, name, "note", fmt.Sprintf("no rule %s in the grammar: the start rule is %s", req.Start, start)))
		}
	}
	res.Start = start
	// gen check's analysis is of the grammar, for every possible start
	// rule, as gen check without -start: the start rule chosen is for what
	// follows.
	nerr := 0
	for _, p := range abnf.Check(g, nil) {
		sev := "note"
		switch p.Severity {
		case abnf.SeverityError:
			sev = "error"
			nerr++
		case abnf.SeverityWarning:
			sev = "warning"
		}
		m := message(p.Pos, name, sev, p.Msg)
		m.Text = p.String()
		res.Problems = append(res.Problems, m)
	}
	res.Millis["check"] = ms(t)
	if nerr > 0 {
		return res
	}

	// Regular or not: the rules that reach no self-embedding recursion,
	// which gen dfa compiles (gen/dfa's DefaultStart). The compiler wants a
	// grammar that checks without errors.
	t = time.Now()
	c, err := dfa.NewCompiler(g, dfa.Options{})
	if err != nil {
		// Lowering refused the grammar: a limit of gen dfa, named.
		res.DFAErr = "gen dfa: " + err.Error()
	} else {
		res.RegularKnown = true
		names, _ := c.DefaultStart() // an error says that no rule is regular
		regular := map[string]bool{}
		for _, n := range names {
			regular[n] = true
		}
		for i := range res.Rules {
			res.Rules[i].Regular = regular[res.Rules[i].Name]
		}
		res.Regular = regular[start]
	}
	res.Millis["regular"] = ms(t)
	if start == "" {
		return res
	}
	res.Clean = true

	if req.Samples > 0 {
		t = time.Now()
		res.Samples, res.SampleErr = samples(g, start, min(req.Samples, 100), req.Seed)
		res.Millis["sample"] = ms(t)
	}

	// gen match, line by line.
	t = time.Now()
	res.Verdicts, res.InputErr = match(g, start, req.Inputs, req.Quoted)
	res.Millis["match"] = ms(t)

	// gen dfa -report, for a regular start rule.
	if res.Regular {
		t = time.Now()
		res.DFA = &DFAInfo{Rule: start}
		if machines, err := c.Build([]string{start}); err != nil {
			res.DFA.Err = err.Error()
		} else {
			m := machines[0]
			res.DFA.NFAStates, res.DFA.DFAStates, res.DFA.States, res.DFA.Classes, res.DFA.Recursive = m.NFAStates, m.DFAStates, m.States(), m.Classes(), m.Recursive
		}
		res.Millis["dfa"] = ms(t)
	}

	if req.Peg {
		t = time.Now()
		inline, total := InlineWork, TotalWork
		if req.FullBudget {
			inline, total = peg.DefaultInlineWork, peg.DefaultTotalWork
		}
		res.Peg = translate(g, start, name, inline, total)
		res.Millis["peg"] = ms(t)
	}
	return res
}

// firstOwnRoot is the default start rule: the first root defined in the
// pasted text (a grammar layered on Appendix A is about its own rules),
// else the first root.
func firstOwnRoot(g *abnf.Grammar, name string, roots []string) string {
	for _, n := range roots {
		if r := g.Rule(n); r != nil && r.Pos.File == name {
			return n
		}
	}
	return roots[0]
}

func match(g *abnf.Grammar, start, inputs string, quoted bool) ([]Verdict, string) {
	m, err := abnf.NewMatcher(g)
	if err != nil {
		return nil, err.Error()
	}
	lines := splitLines(inputs)
	problem := ""
	if len(lines) > MaxInputs {
		problem = fmt.Sprintf("%d inputs: the first %d are matched", len(lines), MaxInputs)
		lines = lines[:MaxInputs]
	}
	out := []Verdict{}
	for i, line := range lines {
		v := Verdict{Line: i + 1, Input: line}
		in := line
		if quoted {
			if in, err = strconv.Unquote(line); err != nil || !strings.HasPrefix(line, `"`) {
				v.Err = "not a Go double-quoted string"
				out = append(out, v)
				continue
			}
			v.Input = strings.ToValidUTF8(in, "\uFFFD")
		}
		if len(in) > MaxInputLen {
			v.Err = fmt.Sprintf("%d bytes, more than the playground's %d", len(in), MaxInputLen)
		} else if ok, err := m.Match(start, []byte(in)); err != nil {
			v.Err = err.Error()
		} else {
			v.Match = ok
		}
		out = append(out, v)
	}
	return out, problem
}

// Sample is one sample or near-miss: raw, and as a Go double-quoted
// string (for quoted inputs).
type Sample struct {
	Raw     string `json:"raw"`
	Quoted  string `json:"quoted"`
	OneLine bool   `json:"oneLine"` // raw is valid UTF-8 with no line feed: it can be a raw input line
	Near    bool   `json:"near"`
}

// samples derives n samples of start and n near-misses, as gen sample and
// gen sample -near do.
func samples(g *abnf.Grammar, start string, n int, seed uint64) ([]Sample, string) {
	s := abnf.NewSampler(g, seed)
	s.MaxLen = 200
	var out []Sample
	for i := 0; i < 2*n; i++ {
		var b []byte
		var err error
		if i < n {
			b, err = s.Sample(start)
		} else {
			b, err = s.NearMiss(start)
		}
		if err != nil {
			return out, err.Error()
		}
		out = append(out, Sample{
			Raw:     strings.ToValidUTF8(string(b), "\uFFFD"),
			Quoted:  strconv.Quote(string(b)),
			OneLine: !bytes.ContainsAny(b, "\n") && utf8.Valid(b),
			Near:    i >= n,
		})
	}
	return out, ""
}

// splitLines splits text into inputs as gen match reads standard input:
// one per line, the empty line included; a final line break ends the last
// input rather than beginning an empty one.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	text = strings.TrimSuffix(text, "\n")
	return strings.Split(text, "\n")
}

func translate(g *abnf.Grammar, start, name string, inline, total int) *PegInfo {
	info := &PegInfo{InlineWork: inline, TotalWork: total}
	res, err := peg.Translate(g, peg.Options{
		Start:      []string{start},
		Package:    "parser",
		Header:     fmt.Sprintf("gen peg -report -start %s -inline-work %d -total-work %d", start, inline, total),
		InlineWork: inline,
		TotalWork:  total,
		Witnesses:  Witnesses,
	})
	if err != nil {
		info.Err = err.Error()
		return info
	}
	r := res.Report
	var buf bytes.Buffer
	if _, err := r.WriteTo(&buf); err != nil {
		info.Err = err.Error()
		return info
	}
	info.Text = buf.String()
	info.PEG = string(res.PEG)
	info.Rules, info.Variants, info.Guards = r.Rules, r.Variants, r.Guards
	info.Proven, info.Guarded, info.Fallbacks, info.Work = r.Proven, r.Guarded, r.Fallbacks, r.Work
	info.Warnings = append([]string{}, r.Warnings...)
	info.Starts = []StartInfo{}
	for _, s := range r.Starts {
		info.Starts = append(info.Starts, StartInfo{Rule: s.Rule, Entry: s.Entry, Mode: s.Mode})
	}
	info.Rewrites = []PegItem{}
	for _, w := range r.Lowering {
		info.Rewrites = append(info.Rewrites, PegItem{Rule: w.Rule, Pos: position(w.Pos, name), Kind: w.Kind, Msg: w.Msg, Count: 1})
	}
	info.Decisions = []PegItem{}
	for _, it := range r.Items {
		info.Decisions = append(info.Decisions, PegItem{Rule: it.Rule, Pos: position(it.Pos, name), Kind: it.Kind, Msg: it.Msg, Example: it.Example, Witness: it.Witness, Count: it.Count})
	}
	return info
}

func position(p abnf.Pos, name string) Position {
	return Position{File: p.File, Line: p.Line, Col: p.Col, Offset: p.Offset, InText: p.File == name && p.Line > 0}
}

func message(p abnf.Pos, name, severity, msg string) Message {
	text := msg
	if p.File != "" {
		text = p.String() + ": " + msg
	}
	return Message{Pos: position(p, name), Severity: severity, Msg: msg, Text: text}
}

func ms(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
