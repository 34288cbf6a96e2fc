// Package framing is chapter 01: the four questions every rate-limiter design
// answers (key, traffic shape, shared state, placement) and the vocabulary the
// later chapters share — a Decision, the Algorithm a key runs, and Keyed, which
// runs one Algorithm per key safely under concurrency.
package framing
