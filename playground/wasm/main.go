//go:build js && wasm

// Command wasm is the playground's WebAssembly program. It registers one
// function, playgroundCall(method, request) → answer (JSON in, JSON out;
// see package play), and waits for calls. The page runs it in a Web
// Worker, so that a long computation never freezes the page and can be
// stopped.
package main

import (
	"fmt"
	"syscall/js"

	"github.com/peguri/rfc3986/playground/internal/play"
)

func main() {
	js.Global().Set("playgroundCall", js.FuncOf(func(_ js.Value, args []js.Value) (answer any) {
		// play.Call recovers its own panics; this one catches a bad call
		// from JavaScript (a missing or non-string argument).
		defer func() {
			if p := recover(); p != nil {
				answer = fmt.Sprintf(`{"error":%q}`, fmt.Sprint("internal error: ", p))
			}
		}()
		if len(args) != 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			return `{"error":"playgroundCall takes two strings: method and JSON request"}`
		}
		return play.Call(args[0].String(), args[1].String())
	}))
	select {}
}
