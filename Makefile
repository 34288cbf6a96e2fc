# The course's commands. On a fresh machine: `make tui` to learn, `make test` to check.
GO      ?= go
PKGS    := ./...
CH      ?= 02

.PHONY: tui test test-short vet lint-docs bench bench-peers bench-redis-peers bench-redis exercise fmt serve

## tui: start the interactive course. Built, then run as itself (not under
## `go run`), so it is the terminal's own process and ends when the terminal does.
## The build runs in the background of a shell that waits for it: a shell
## only runs a trap between commands, so with the build in the foreground a
## hang-up (the terminal closed), ^C or a kill would wait for the whole build;
## `wait` returns at once and the trap ends the build, then the shell.
TUI_BIN ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/ratelimit-course/tui
## While the build runs, a line every 5 s says how long it has taken and how many
## packages it has compiled (go build -v names each one), so a cold cache is no blank screen.
tui:
	@[ -x "$(TUI_BIN)" ] || echo "tui: building the course first (a minute or two on a cold Go build cache)..."
	@log=$$(mktemp); trap 'kill $$build $$tick 2>/dev/null; rm -f "$$log"; exit 129' HUP INT TERM; \
	  $(GO) build -v -o "$(TUI_BIN)" ./tui 2>"$$log" & build=$$!; \
	  ( s=0; while sleep 5; do s=$$((s+5)); echo "tui: still building, $$s s, packages compiled: $$(grep -c . "$$log")"; done ) & tick=$$!; \
	  wait $$build; rc=$$?; kill $$tick 2>/dev/null; \
	  if [ $$rc -ne 0 ]; then cat "$$log" >&2; rm -f "$$log"; exit $$rc; fi; \
	  rm -f "$$log"; trap - HUP INT TERM; exec "$(TUI_BIN)"

## serve: chapter 10's rate limit service (gRPC 127.0.0.1:8081, HTTP 127.0.0.1:8080),
## in memory unless given --redis; flags: go run ./tui serve --help
serve:
	$(GO) run ./tui serve

## test: the docs' lints, then everything with the race detector (Redis tests need Redis: see README)
test: vet lint-docs
	@unformatted=$$(gofmt -l chapters tui internal core); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi
	$(GO) test -race -count=1 -timeout 25m $(PKGS)

## test-short: the short tier: no Redis, tmux, Docker, network or build of a
## binary (internal/testenv skips those tests), in a minute or two
test-short:
	$(GO) test -short -count=1 $(PKGS)

## vet: go vet, also with each exercise tag (a stub that no longer compiles
## against its chapter fails here, not on a learner's machine)
vet:
	$(GO) vet $(PKGS)
	$(GO) vet -tags exercise $(PKGS)
	$(GO) vet -tags exercise06 $(PKGS)
	$(GO) vet -tags exercise09 $(PKGS)
	$(GO) vet -tags exercise10 $(PKGS)
	$(GO) vet -tags exercise11 $(PKGS)

## lint-docs: the prose lints, in one place (internal/doclint): no text tells its history
## (internal/history's phrases), no Markdown file over 450 lines; and every doc comment
## names its identifier (internal/doccheck). go test ./... runs them too.
lint-docs:
	$(GO) test -count=1 ./internal/doclint/ ./internal/history/ ./internal/doccheck/

## bench: every in-memory algorithm beside x/time/rate on the same clock, then each
## package's ratios to it (internal/benchratio)
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./chapters/02-fixed-window ./chapters/03-sliding ./chapters/04-buckets | $(GO) run ./internal/benchratio

## bench-peers: core.Keyed beside x/time/rate and go-limiter (module bench/, not in go.mod)
bench-peers:
	cd bench && $(GO) test -run '^$$' -bench Peers -benchmem -benchtime 300ms -count 5 . | $(GO) run ./ratios

## bench-redis-peers: chapter 06's scripts beside redis_rate, ulule and INCR, each call alone and through
## chapter 06's Batcher, on a redis-server of its own (module bench/; about 3 minutes)
bench-redis-peers:
	cd bench && $(GO) test -run '^$$' -bench Redis -benchtime 1x .

## bench-redis: decisions per second through EVALSHA and MEMORY USAGE per key
bench-redis:
	$(GO) test -run '^$$' -bench . -benchmem ./chapters/06-distributed/...

## exercise: run one chapter's tests against your own stub, e.g. make exercise CH=02 (or CH=2).
## Chapters 06, 09, 10 and 11 have a tag of their own (exercise06, exercise09, exercise10, exercise11): the
## exercise tag would also swap in chapter 04's stub bucket, which they run on (10 on 02 and 03
## too; 11 on 04). Only chapter 06's exercise needs Redis: 09, 10 and 11 run without REQUIRE_REDIS.
## Chapter 09's runs under -race (its InFlight must hold under concurrent use); chapter 10's runs
## the matching tests (rules/) first and stops there while they fail.
EXERCISES := 02 03 04 06 09 10 11
CHN       := $(if $(filter 1 2 3 4 5 6 7 8 9,$(CH)),0$(CH),$(CH))
EXTAG     := $(if $(filter 06 09 10 11,$(CHN)),exercise$(CHN),exercise)
exercise:
ifeq ($(and $(filter 1,$(words $(CH))),$(filter $(EXERCISES),$(CHN))),)
	$(error make exercise: no exercise for CH=$(CH): accepted CH=02, 03, 04, 06, 09, 10 or 11 (2, 3, 4, 6 and 9 work too))
endif
ifeq ($(CHN),10)
	@$(GO) test -count=1 -tags $(EXTAG) ./chapters/10-*/rules/ || { \
	  echo "make exercise CH=10: the matching tests above fail; the service's tests run once they pass (fix walk, then limitsToCheck, in chapters/10-service/rules/exercise.go)"; exit 1; }
endif
	$(if $(filter 09 10 11,$(CHN)),,REQUIRE_REDIS=1 )$(GO) test -count=1 $(if $(filter 09,$(CHN)),-race )-tags $(EXTAG) ./chapters/$(CHN)-*/ $(if $(filter 10,$(CHN)),./chapters/10-*/rules/)

fmt:
	gofmt -w chapters tui internal core
