package repotest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// mdDoc is what the checks need of a Markdown file: its anchors, its
// links, and its blocks marked runnable.
type mdDoc struct {
	path    string          // slash-separated, from the repository root
	anchors map[string]bool // GitHub's heading anchors, and HTML id and name attributes
	links   []mdLink
	blocks  []runBlock
	errs    []string // malformed markers, "file:line: why"
}

type mdLink struct {
	line int
	dest string
}

// A runBlock is a fenced shell block after a run marker.
//
// The marker is one line of its own:
//
//	<!-- run: OPTION; OPTION; … (NOTE) -->
//
// followed, after blank lines at most, by a fenced block whose info
// string is sh, bash or shell. Every option may be left out:
//
//	in the repository   run from the repository's root (the default)
//	in a temp dir       run in a new empty directory outside the clone
//	in a fresh module   as in a temp dir; the block has exactly one line
//	                    starting "go mod init ", and the runner adds after
//	                    it a replace of github.com/peguri/rfc3986 to the
//	                    clone (the module is not published)
//	exit N              the exit status expected (0 to 255; default 0)
//	needs CMD           a command the block needs on $PATH (as many as
//	                    needed); missing, it is an error, not a skip
//
// NOTE, in parentheses at the end, is for readers of the Markdown source
// (GitHub does not show comments). The block runs with bash -euo pipefail:
// the first failing command ends it, and its status is the block's.
type runBlock struct {
	file  string
	line  int // the marker's
	where string
	exit  int
	needs []string
	note  string
	text  string
}

const (
	inRepository = "in the repository"
	inTempDir    = "in a temp dir"
	inFreshMod   = "in a fresh module"
)

// name is the block's subtest name: README.md:632 in a fresh module.
func (b runBlock) name() string { return fmt.Sprintf("%s:%d %s", b.file, b.line, b.where) }

var (
	markerRE      = regexp.MustCompile(`^ {0,3}<!--\s*run:(.*?)-->\s*$`)
	looseMarkerRE = regexp.MustCompile(`(?i)^ {0,3}<!--\s*run\b`) // a marker starts its line: elsewhere, it is text or code
	fenceRE       = regexp.MustCompile("^( {0,3})(`{3,}|~{3,})\\s*([^`\\s]*)")
	atxRE         = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	setextRE      = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
	inlineLinkRE  = regexp.MustCompile(`\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)`)
	refDefRE      = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)`)
	htmlRefRE     = regexp.MustCompile(`(?i)<(?:a|img|source)\b[^>]*?\s(?:href|src)\s*=\s*"([^"]*)"`)
	htmlAnchorRE  = regexp.MustCompile(`(?i)<[a-z][^>]*?\s(?:id|name)\s*=\s*"([^"]*)"`)
	renderLinkRE  = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTagRE     = regexp.MustCompile(`<[^>]*>`)
)

// parseMarkdown reads a Markdown file: headings (ATX and setext), links
// outside code, and run markers with their blocks. It knows the CommonMark
// that this repository's documents use, not all of it.
func parseMarkdown(file, text string) *mdDoc {
	d := &mdDoc{path: file, anchors: map[string]bool{}}
	seen := map[string]int{}
	addHeading := func(h string) {
		s := slug(h)
		if n, dup := seen[s]; dup {
			seen[s] = n + 1
			s = fmt.Sprintf("%s-%d", s, n+1)
		} else {
			seen[s] = 0
		}
		d.anchors[s] = true
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var (
		fence     string    // the open fence's backticks or tildes; "" outside
		block     *runBlock // the marked block being read
		marker    *runBlock // a marker waiting for its block
		paragraph bool      // the previous line is paragraph text (for setext headings)
		prevLine  string
		errorf    = func(n int, format string, args ...any) {
			d.errs = append(d.errs, fmt.Sprintf("%s:%d: ", file, n)+fmt.Sprintf(format, args...))
		}
	)
	for i, line := range lines {
		n := i + 1
		if fence != "" {
			if m := fenceRE.FindStringSubmatch(line); m != nil && m[2][0] == fence[0] && len(m[2]) >= len(fence) && m[3] == "" {
				fence = ""
				if block != nil {
					d.blocks = append(d.blocks, *block)
					block = nil
				}
			} else if block != nil {
				block.text += line + "\n"
			}
			continue
		}
		if m := fenceRE.FindStringSubmatch(line); m != nil {
			fence = m[2]
			paragraph = false
			if marker != nil {
				switch m[3] {
				case "sh", "bash", "shell":
					block, marker = marker, nil
				default:
					errorf(marker.line, "the run marker is followed by a %q block, not sh, bash or shell", m[3])
					marker = nil
				}
			}
			continue
		}
		if marker != nil && strings.TrimSpace(line) != "" {
			errorf(marker.line, "the run marker must be followed by a fenced sh block, not by %q", line)
			marker = nil
		}
		if m := markerRE.FindStringSubmatch(line); m != nil {
			b, err := parseMarker(m[1])
			if err != nil {
				errorf(n, "run marker: %v", err)
				continue
			}
			b.file, b.line = file, n
			marker = &b
			continue
		} else if looseMarkerRE.MatchString(line) {
			errorf(n, "%q looks like a run marker but is not one: write <!-- run: OPTIONS --> on a line of its own", line)
		}

		switch m := atxRE.FindStringSubmatch(line); {
		case m != nil:
			addHeading(m[2])
			paragraph = false
		case paragraph && setextRE.MatchString(line):
			addHeading(strings.TrimSpace(prevLine))
			paragraph = false
		default:
			paragraph = strings.TrimSpace(line) != "" && !strings.HasPrefix(strings.TrimSpace(line), "|")
		}
		prevLine = line

		text := stripCode(line)
		for _, re := range []*regexp.Regexp{inlineLinkRE, refDefRE, htmlRefRE} {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				d.links = append(d.links, mdLink{line: n, dest: strings.TrimSuffix(strings.TrimPrefix(m[1], "<"), ">")})
			}
		}
		for _, m := range htmlAnchorRE.FindAllStringSubmatch(text, -1) {
			d.anchors[m[1]] = true
		}
	}
	if marker != nil {
		errorf(marker.line, "the run marker is followed by no block")
	}
	if block != nil {
		errorf(block.line, "the marked block is not closed")
	}
	for _, b := range d.blocks {
		if b.where == inFreshMod {
			if c := len(regexp.MustCompile(`(?m)^go mod init `).FindAllString(b.text, -1)); c != 1 {
				errorf(b.line, "a block run in a fresh module has exactly one line starting \"go mod init \" (the runner adds the replace after it), not %d", c)
			}
		}
	}
	return d
}

// parseMarker reads a run marker's text, after "run:".
func parseMarker(s string) (runBlock, error) {
	b := runBlock{where: inRepository}
	if i := strings.Index(s, "("); i >= 0 {
		note := strings.TrimSpace(s[i:])
		if !strings.HasSuffix(note, ")") {
			return b, fmt.Errorf("the note %q does not end with \")\"", note)
		}
		b.note = note[1 : len(note)-1]
		s = s[:i]
	}
	var whereSet, exitSet bool
	for _, opt := range strings.Split(s, ";") {
		opt = strings.Join(strings.Fields(opt), " ")
		switch {
		case opt == "":
			continue
		case opt == inRepository || opt == inTempDir || opt == inFreshMod:
			if whereSet {
				return b, fmt.Errorf("%q: the block's place is already %q", opt, b.where)
			}
			b.where, whereSet = opt, true
		case strings.HasPrefix(opt, "exit "):
			n, err := strconv.Atoi(strings.TrimPrefix(opt, "exit "))
			if err != nil || n < 0 || n > 255 {
				return b, fmt.Errorf("%q: an exit status is a number from 0 to 255", opt)
			}
			if exitSet {
				return b, fmt.Errorf("%q: the exit status is already %d", opt, b.exit)
			}
			b.exit, exitSet = n, true
		case strings.HasPrefix(opt, "needs "):
			cmd := strings.TrimPrefix(opt, "needs ")
			if !regexp.MustCompile(`^[A-Za-z0-9._+-]+$`).MatchString(cmd) {
				return b, fmt.Errorf("%q: needs names one command", opt)
			}
			b.needs = append(b.needs, cmd)
		default:
			return b, fmt.Errorf("unknown option %q (have: %s; %s; %s; exit N; needs CMD)", opt, inRepository, inTempDir, inFreshMod)
		}
	}
	return b, nil
}

// stripCode removes a line's code spans, whose text is not Markdown.
func stripCode(line string) string {
	var out strings.Builder
	for {
		i := strings.Index(line, "`")
		if i < 0 {
			out.WriteString(line)
			return out.String()
		}
		n := len(line[i:]) - len(strings.TrimLeft(line[i:], "`"))
		ticks := line[i : i+n]
		// The span ends at the next run of exactly as many backticks.
		j, rest := -1, line[i+n:]
		for k := 0; k < len(rest); {
			m := strings.Index(rest[k:], ticks)
			if m < 0 {
				break
			}
			k += m
			run := len(rest[k:]) - len(strings.TrimLeft(rest[k:], "`"))
			if run == n {
				j = k
				break
			}
			k += run
		}
		out.WriteString(line[:i])
		if j < 0 { // no closing run: literal backticks
			out.WriteString(ticks)
			line = rest
			continue
		}
		line = rest[j+n:]
	}
}

// slug is GitHub's anchor for a heading: its text as rendered (links and
// images by their text, no HTML tags), lower-cased, every character but
// letters, marks, digits, "-", "_" and spaces dropped, and each space
// turned into "-" (github-slugger, which GitHub's rendering follows).
func slug(heading string) string {
	h := renderLinkRE.ReplaceAllString(heading, "$1")
	h = htmlTagRE.ReplaceAllString(h, "")
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.No, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
