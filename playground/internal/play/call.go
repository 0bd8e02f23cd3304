package play

import (
	"encoding/json"
	"fmt"

	"github.com/peguri/rfc3986/gen/peg"
)

// Call is the page's one entry point: it runs method on the JSON request
// and returns the JSON answer, {"result": …} or {"error": "…"}. It never
// panics: in WebAssembly a panic would end the program, and the page with
// it.
func Call(method, request string) (answer string) {
	defer func() {
		if p := recover(); p != nil {
			answer = errorAnswer(fmt.Sprintf("internal error in %s: %v", method, p))
		}
	}()
	var result any
	switch method {
	case "info":
		result = Info{Grammars: Grammars(), Syntaxes: Syntaxes(), Limits: limits()}
	case "grammar":
		var req GrammarRequest
		if err := json.Unmarshal([]byte(request), &req); err != nil {
			return errorAnswer("grammar: bad request: " + err.Error())
		}
		result = Grammar(req)
	case "uri":
		var req URIRequest
		if err := json.Unmarshal([]byte(request), &req); err != nil {
			return errorAnswer("uri: bad request: " + err.Error())
		}
		result = URI(req)
	default:
		return errorAnswer(fmt.Sprintf("no method %q", method))
	}
	b, err := json.Marshal(struct {
		Result any `json:"result"`
	}{result})
	if err != nil {
		return errorAnswer(err.Error())
	}
	return string(b)
}

func errorAnswer(msg string) string {
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	return string(b)
}

// Info is what the page needs once: the embedded grammars, the generated
// syntaxes and their rules, and the limits.
type Info struct {
	Grammars []EmbeddedGrammar `json:"grammars"`
	Syntaxes []SyntaxInfo      `json:"syntaxes"`
	Limits   map[string]int    `json:"limits"`
}

func limits() map[string]int {
	return map[string]int{
		"inlineWork":        InlineWork,
		"totalWork":         TotalWork,
		"defaultInlineWork": peg.DefaultInlineWork,
		"defaultTotalWork":  peg.DefaultTotalWork,
		"witnesses":         Witnesses,
		"maxInputs":         MaxInputs,
		"maxInputLen":       MaxInputLen,
		"maxGrammar":        MaxGrammar,
	}
}
