package peg_test

import (
	"math"
	"strings"
	"testing"

	"github.com/peguri/rfc3986/abnf"
	"github.com/peguri/rfc3986/gen/peg"
)

// rfc5322Message536 is a valid sample of RFC 5322's message (nested
// comments and folding white space between received-tokens).
const rfc5322Message536 = "reTuRN-pAtH:<>\r\nREceiVeD:9}^|~.z.!#&%/./@\t   [\a\t   \r\n\tZ^\t\t\t \r\n\t \t \t\r\n\t  \t \r\n\t\r\n\t  \t]\t  \t\r\n \t '*+=\t \r\n\t \t\t\t() \r\n \r\n\t   \t\r\n  \t\t\t\r\n (\\e\t) \t \t +~~(() \r\n\t \f \t\t  \\\f\r\n  \t\t(8))(\\\x00\\\f\t\t \r\n\t \t\r\n\t \\~ \t \t\r\n (\t\t\t \r\n \t\t\r\n   \t\r\n\t \t)\r\n \t \t )   \t\t\r\n\t \t\t \r\n\t\r\n \t  \t\r\n\t\t (] \r\n  \t\t\t\r\n \t\t\r\n \t  \r\n\t  (\t\t '\t\t\r\n\t   \x7f\t\t  \t\r\n \r\n\t\r\n \t \t )\\\t ( ))((\t\t3(\\\nu) \t \t\r\n \t\t  \\\t) )  \t\t (\t \r\n\t\t\t\t(    \r\n \t\t\t \r\n  \t\t \f\\\r( \r\n\t\t\t\r\n )(\r\n\t \t \t)  \t\t \r\n\t \t )\t\r\n\tw\t  \t\t\r\n ) \t  \t\r\n \t\t\r\n\t\t \t \r\n   \r\n\t \t\t@\r\n [\b \r\n\t^\t\t  \\\r]<@\t(\t\t  ) \t  \t(!  \t\r\n\t\t  \t\r\n \t \r\n  \r\n\t\t\t ())!:{@?>;9OCT6999:93A\r\n"

// Valid samples of RFC 5322's message from TestRealGrammars' full run
// (RFC3986_FULL=1): rfc5322Message516, on which ParseRule gave up (96,721
// steps of the guide, over its budget of 87,400), and two that searching
// every overlapping call as a frame of its caller's continuation pushed
// over their budgets (123,188 of 88,900 and 91,002 of 88,300): comments and
// folding white space read in 32 contexts (To: and obs-to, address-list
// and obs-addr-list, name-addr and group, phrase and obs-phrase, atom and
// quoted-string), which shared searches read once.
const (
	rfc5322Message516 = "RecEivED:{#&'~\t \t\r\n \t \r\n \t \t(  \t\t\r\n\t) \t\r\n  \r\n\t\t \t \r\n\t \r\n\t\t\t(   ()\t\r\n \t\t \r\n\t \t (( \t \r\n\t)\t\r\n\t\t\t\t\r\n  \t \r\n \r\n \t   ~\t\r\n \t \t \\\v')\\\n\t \t \t*)( \t \t\r\n     ()\\ )\t(\t\t  \t\r\n\t\r\n\t\t\t \t\r\n\t\r\n\t\t\t  ~\t\t \t ) \t   \r\n  \t\t \r\n\t \t\t \r\n \r\n (\t(\\\t])\\\n(\t\r\n\t  \r\n \r\n\t\t\t\t\t\r\n \\!\\\n \t  \r\n\t   \t\x7f \r\n \t \t\t())% \t \t\t)+/=*(   (\t#\t\r\n \t)\\y\t()  \t \r\n\t \t  \r\n\t\r\n\t \r\n\t\t%\t   \r\n\t \t )\t \t  \r\n\t\r\n \t \t\t(\\\x00\t (\\ \t \t \r\n  ('(\t \t\t\tH\t \\! \x1b;\r\n )\\\x00)\t\t \t (\t \t \t\r\n  \t\\\x01\t \\\t \r\n \t\t \t\r\n \r\n\t \t  \r\n\t \t\t )~\t \t)()( \t \t \r\n\t\r\n\t\t  \r\n   \t\t)\t \t \r\n\t) \r\n\t \t\r\n  \t\t\r\n\t\r\n\t  (\t  \t\r\n \t \t \r\n\t\r\n \t\t  ) \t\t#\r\n"
	rfc5322Message526 = "TO:_0~  \t\t\r\n \r\n \t\r\n\t \t\t\t\r\n \t \t \t \t\r\n  \r\n\t\t \t\r\n \r\n  \t(\\!\t \t( \t\t)%\t\r\n \t\t \r\n \r\n \t\r\n  \t\t )( \t\t \t()\t  (\t\\~\\\x00\\\r  \t\t\t\r\n  \t \r\n\t(  \t\r\n \t)\t\r\n \t  \r\n\t \t\t \r\n\t \t\r\n ) \t\t (\\\t(() \t\t)(\f)[)\t\t   \r\n \t\t \\\n \t \t) \t \t\r\n  \t\t\t(\\~\t  \tt \r\n \t\r\n\t\t   \r\n\t \t \t9)( \t\t\r\n\t (\t  \\\x0e* \r\n\t\t\t\r\n  \t  \r\n\t  \t\t\r\n\t\\\\  \r\n\t\r\n )\r\n\t( \t \t \"\t()]  \t\t \r\n \t\r\n\t\r\n \t \t \r\n\t \t )\t\t\t\t\r\n\t  \\\t  g\r\n\t\t   ) \t\t  \r\n \t \r\n\t\r\n\t  \t\t\r\n \t\t  (\\\x7f\t  \t\t)\"\r\n w\t\t\r\n  \r\n  \r\n\t\t \r\n\t\t E: \r\n \t\t\r\n\t;,\r\nSubjECt \t  :\r\r\r\r\r\nReSeNT-SENDer:(\x01\t \t \r\n  \t\t\t)(((* \\\n\t \t\t (>\t  \t \r\n\t\r\n\t \t \t\\\t\t   \t\r\n \r\n\t\t\t\t \r\n  \r\n o))))<-@}>\r\n"
	rfc5322Message522 = "ReseNT-BCC:\"\\\r\\\x00!\\\v\t \t\t \"(\\\t  \t\t )\t \t \t\r\n \r\n   \r\n\t \r\n\t  \t ()\t \t\t\t\t\t \t(( \r\n\t\r\n \t \r\n\t \r\n\t\t\t)\t  ( \t   (\\!\\~\f \t\t\r\n \r\n  \t\t \r\n\t\t \t\t\r\n \t  \\\n)\"\t\t  \r\n\t\t  \t) \r\n\t\t \t( \t\r\n \r\n \t\t \t() \t \t\r\n \t))\t \t\r\n  \r\n\t\r\n   \r\n\t\t\t \t\t \t  ( \t\t\t)  \t\r\n \t  \r\n\t\t \t\r\n \r\n\t \t([ \t\t ) ((g\t \t\t\r\n  \\\r\t\r\n \t  \t\r\n\t \t\r\n\t \r\n \t  \x0e)\t\t\t \r\n  )\t\t \t \r\n\t ()(\t \t \t\\\t!(\t \r\n  \t\r\n \t \t \\\x00\t)   [).:;  \t\r\n\t\t\t\r\ndAtE\t \t :5 \t\t mar \t\t\t \r\n  \t90010099\t \t\r\n\t\t \t \r\n  \t\t\r\n\t  \t\t69(  \r\n\t  \t\t\r\n\t \t  \r\n\t (( \t\r\n \t\t\\  \r\n\t)\x01 \t\t\r\n { \t\r\n \t \t')\\\v[ \t  \r\n \t\t\t\t()  )((  \t\t\t\r\n \t  \r\n\t)\t\\6\\ (\t \t\r\n \r\n\t>)):10g\r\n"
)

// exprPostfix526 is a valid sample of expr-postfix's expression (gen
// fidelity's first valid input with its defaults).
const exprPostfix526 = "(++_._(_)._zF=_[_](_=_)+=_||_||_||_&&_&&_==_?_=_,-_-=_=_:_&&_?_,_=_:_?_:_?_:_,!!-----++++_*=---_()+++=-!_._-=!++_._-=++_._()*=_?_,_:_,_&&_==_&&_!=_==_>_&&_<=_<=_-_&&_<=_!=_-_!=_>_<_-_>_/_&&_-_+_+--_?-_->_=!--_+=_?_,_:_?_:_,-!--_[_]*=!++_()+=_||_&&_?_,_:_||_?_,_:_?_:_:_&&_&&_==_&&_==_!=_>=_&&_!=_==_==_<=_+_||_!=_!=_<_&&_==_!=_>=_+_&&_==_<_+_!=_-_>_-_-_/_?---++-_=!++--_*=-!_*=--_-=_=_:_!=_==_<_&&_==_>=_?_,_,_=_,_,_._-=++_+=_=_,--_*=----_=-_+=_:_!=_&&_!=_==_>=_?++--_-=!_+=_=_:_||_||_&&_&&_==_?_,_,_=_,--_=_=_:_||_?_:_)+_-_-_"

// displayName is a valid message whose To: display name has n comments
// between its two words: "a", n × " (a) ", "b". Each comment can end the
// first word's CFWS or begin the second's, and CFWS called at each of them
// ends anywhere in the rest: lists of ends quadratic in n.
func displayName(n int) string {
	return "To:a" + strings.Repeat(" (a) ", n) + "b<c@d>\r\n"
}

// TestGuardWork: exact guards and the exact recognizer cost work in
// proportion to the text they decide, not to the rest of the input at
// every iteration of a repetition (issue 25). Counted in the steps of the
// lookahead and the guide, run by the PEG interpreter: within ParseRule's
// default budget (10,000 plus 150 per byte), and, for the tel URIs, a few
// steps per byte whatever their length.
func TestGuardWork(t *testing.T) {
	for _, c := range []struct {
		file, rule, name, in string
		perByte              float64 // the most steps per byte, 0 for the budget alone
	}{
		{"rfc3966.abnf", "telephone-uri", "tel ;a×64", "tel:2" + strings.Repeat(";a", 64) + ";phone-context=a", 3},
		{"rfc3966.abnf", "telephone-uri", "tel ;a×640", "tel:2" + strings.Repeat(";a", 640) + ";phone-context=a", 3},
		{"rfc3966.abnf", "telephone-uri", "tel ;a×6400", "tel:2" + strings.Repeat(";a", 6400) + ";phone-context=a", 3},
		{"rfc8610-cddl.abnf", "cddl", "CDDL a=[( // )]", "a=[(" + strings.Repeat(" ", 16) + "//" + strings.Repeat(" ", 16) + ")]", 0},
		// The valid sample of TestRealGrammars on which ParseRule gave up
		// (103,294 steps; 65,113 since a call of the parser's invocations
		// is searched as a frame of its own, Guide.callReach).
		{"rfc5322.abnf", "message", "RFC 5322 message, 536 bytes", rfc5322Message536, 0},
		// Comments between the received-tokens: each token's [CFWS] ends
		// anywhere in the run, and the lists of its ends from every
		// position of the run took 14,834 steps per byte.
		{"rfc5322.abnf", "message", "RFC 5322 Received, (a)×400", "Received:a" + strings.Repeat(" (a) ", 400) + "b" + strings.Repeat(" (a) ", 400) + "c;1 Jan 2000 00:00 +0000\r\n", 100},
		{"rfc5322.abnf", "message", "RFC 5322 message, 516 bytes", rfc5322Message516, 0},
		{"rfc5322.abnf", "message", "RFC 5322 message, 526 bytes", rfc5322Message526, 0},
		{"rfc5322.abnf", "message", "RFC 5322 message, 522 bytes", rfc5322Message522, 0},
		// Ten levels of precedence, all of them guided, at every operand:
		// 62.5 steps per byte before aliases shared their callee's ends
		// and invocations with known ends were answered from them, 41.7
		// after.
		{"expr-postfix.abnf", "expression", "expr-postfix expression, 526 bytes", exprPostfix526, 48},
		// Comments in a display name (issue 20): 1,393 steps per byte at
		// n = 100 and 5,413 at n = 400 before frames and shared searches.
		{"rfc5322.abnf", "message", "RFC 5322 To: display name, (a)×100", displayName(100), 50},
		{"rfc5322.abnf", "message", "RFC 5322 To: display name, (a)×400", displayName(400), 50},
		{"rfc5322.abnf", "message", "RFC 5322 To: display name, (a)×1600", displayName(1600), 50},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := abnf.ReadFiles([]string{"../../testdata/grammars/" + c.file}, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, prog := translate(t, g, peg.Options{Start: []string{c.rule}, Witnesses: -1})
			budget := 10000 + 150*len(c.in)
			ok, _, steps, err := prog.GuideRun(res.Entries[c.rule], []byte(c.in), res, budget)
			per := float64(steps) / float64(len(c.in))
			t.Logf("%d bytes: %d steps (%.1f per byte)", len(c.in), steps, per)
			if !ok || err != nil {
				t.Fatalf("valid input rejected with ParseRule's budget (%d): %v", budget, err)
			}
			if c.perByte > 0 && per > c.perByte {
				t.Errorf("%.1f steps per byte, want at most %v", per, c.perByte)
			}
		})
	}
}

// TestGuideGrowth: on the ambiguous, self-embedding t = "y" / t " " t
// (left recursion, rewritten by gen into iteration, its loop settled by
// the guide), the guide's steps grow linearly with the input: the
// exponent of their growth between successive lengths is at most 1.2
// (before frames for recursive calls, it was above 3: 5,000 bytes did not
// finish in 10 minutes), and every length is within ParseRule's budget.
func TestGuideGrowth(t *testing.T) {
	g, err := abnf.ReadString("t.abnf", "t = \"y\" / t \" \" t\n")
	if err != nil {
		t.Fatal(err)
	}
	res, prog := translate(t, g, peg.Options{Start: []string{"t"}, Witnesses: -1})
	prev, prevLen := 0, 0
	for _, size := range []int{1000, 2000, 4000, 8000, 10000} {
		in := "y" + strings.Repeat(" y", size/2-1) // size-1 bytes
		budget := 10000 + 150*len(in)
		ok, _, steps, err := prog.GuideRun(res.Entries["t"], []byte(in), res, budget)
		if !ok || err != nil {
			t.Fatalf("%d bytes: valid input rejected with ParseRule's budget (%d): %v", len(in), budget, err)
		}
		growth := 0.0
		if prev > 0 {
			growth = math.Log(float64(steps)/float64(prev)) / math.Log(float64(len(in))/float64(prevLen))
		}
		t.Logf("%d bytes: %d steps (%.1f per byte), growth exponent %.2f", len(in), steps, float64(steps)/float64(len(in)), growth)
		if growth > 1.2 {
			t.Errorf("%d bytes: steps grow with exponent %.2f from %d bytes, want at most 1.2", len(in), growth, prevLen)
		}
		prev, prevLen = steps, len(in)
	}
}

// TestGuideSharedWhiteSpace: white space that two guided rules could
// share (RFC 8259's JSON-text = ws value ws, where value may begin with
// begin-array = ws %x5B ws) costs the guide work linear in its length.
// Each position of the run is a shared search of value of its own, and
// each searched the rest of the run: 3n² steps, 1,249,521 at n = 640,
// and ParseRule gave up from about 88 spaces. The false answers the
// searches find without looking past their first frames (begin-array's
// white space, not followed by "[") are shared by every search
// (Guide.known): about 50 steps per space now. Valid and invalid inputs,
// white space before a value at the top, in an array and in an object:
// each within ParseRule's budget, and the steps at most 2.5 times as many
// when the run doubles.
func TestGuideSharedWhiteSpace(t *testing.T) {
	g, err := abnf.ReadFiles([]string{"../../testdata/grammars/rfc8259-json.abnf"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, prog := translate(t, g, peg.Options{Start: []string{"JSON-text"}, Witnesses: -1})
	for _, c := range []struct {
		name          string
		before, after string
		valid         bool
	}{
		{"before the value", "", "1", true},
		{"before an array's second value", "[1,\n", "1]", true},
		{"before a member's value", "{\"a\":", "1}", true},
		{"before no value", "", "x", false},
		{"before no array value", "[1,\n", "]", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			prev := 0
			for _, n := range []int{80, 160, 320, 640, 1280, 2560} {
				in := c.before + strings.Repeat(" ", n) + c.after
				budget := 10000 + 150*len(in)
				ok, _, steps, err := prog.GuideRun(res.Entries["JSON-text"], []byte(in), res, budget)
				t.Logf("%d spaces: %d steps (%.1f per byte)", n, steps, float64(steps)/float64(len(in)))
				if err != nil || ok != c.valid {
					t.Fatalf("%d spaces: %v with ParseRule's budget (%d), want %v: %v", n, ok, budget, c.valid, err)
				}
				if prev > 0 && float64(steps) > 2.5*float64(prev) {
					t.Errorf("%d spaces: %d steps, more than 2.5 times the %d steps of %d spaces", n, steps, prev, n/2)
				}
				prev = steps
			}
		})
	}
}
