//go:build !unix

package main

import "os/exec"

// killTreeOnCancel leaves exec's default, which kills cmd alone when its
// context is done: process groups are a Unix notion.
func killTreeOnCancel(cmd *exec.Cmd) {}
