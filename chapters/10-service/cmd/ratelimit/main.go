// Command ratelimit is chapter 10's rate limit service on its own: the
// same flags and behaviour as `tui serve` (CONTRACT-CLI.md §5), in a binary
// that holds the service and nothing of the course's terminal app.
//
//	go build -o ratelimit ./chapters/10-service/cmd/ratelimit
//	./ratelimit --config rules/ --redis 127.0.0.1:6379 --grpc 127.0.0.1:8081
package main

import (
	"os"

	service "github.com/ratelimit-course/ratelimit/chapters/10-service"
)

func main() {
	os.Exit(service.Command(os.Args[1:], os.Stdout, os.Stderr))
}
