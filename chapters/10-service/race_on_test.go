//go:build race

package service

// raceDetector: the race detector keeps shadow memory beside the heap, so
// a process's RSS says nothing about the service's own memory under it.
const raceDetector = true
