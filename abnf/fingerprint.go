package abnf

import (
	"crypto/sha256"
	"encoding/hex"
)

// Fingerprint names g's text in 16 hexadecimal digits: the start of the
// SHA-256 of its canonical form ([Format]) and of whether its values are
// octets. Grammars that [Format] writes alike (the same rules, however
// they were spaced, commented or split over "=/") have one fingerprint;
// grammars of one language written otherwise (rules in another order,
// %d48 for %x30) have two.
// gen writes it into each file it generates from g (syntax.PEG.Source,
// syntax.Table.Source), so that files generated from different grammars
// are not put together by mistake: syntax.NewGrammar refuses them.
func Fingerprint(g *Grammar) string {
	h := sha256.New()
	h.Write(Format(g))
	if g.Octets {
		h.Write([]byte("\x00octets"))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
