//go:build !race

package service

const raceDetector = false // see race_on_test.go
