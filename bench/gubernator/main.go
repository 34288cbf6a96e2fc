// Command gubernator starts a cluster of gubernator v2.13.0 daemons on
// loopback, each told the others' addresses (static peers, discovery
// "none"), for chapter 11's differential test. It prints one JSON line, the
// peers' HTTP and gRPC addresses, then serves until its standard input
// closes or it is signalled, and closes every daemon.
//
// It is a module of its own so that gubernator stays out of the course's
// go.mod; chapter 11's gubernator_test.go builds it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gubernator-io/gubernator/v2"
	"github.com/sirupsen/logrus"
)

func main() {
	n := flag.Int("peers", 3, "number of daemons")
	flag.Parse()
	if err := run(*n); err != nil {
		fmt.Fprintln(os.Stderr, "gubernator cluster:", err)
		os.Exit(1)
	}
}

// freeAddr returns a loopback address with a port free at the time of asking.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func run(n int) error {
	logrus.SetLevel(logrus.ErrorLevel)
	var daemons []*gubernator.Daemon
	defer func() {
		for _, d := range daemons {
			d.Close()
		}
	}()
	var peers []gubernator.PeerInfo
	for range n {
		grpcAddr, err := freeAddr()
		if err != nil {
			return err
		}
		httpAddr, err := freeAddr()
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		d, err := gubernator.SpawnDaemon(ctx, gubernator.DaemonConfig{
			Logger:            logrus.WithField("instance", grpcAddr),
			InstanceID:        grpcAddr,
			GRPCListenAddress: grpcAddr,
			HTTPListenAddress: httpAddr,
			AdvertiseAddress:  grpcAddr,
			PeerDiscoveryType: "none",
		})
		cancel()
		if err != nil {
			return err
		}
		daemons = append(daemons, d)
		peers = append(peers, gubernator.PeerInfo{GRPCAddress: grpcAddr, HTTPAddress: httpAddr})
	}
	for _, d := range daemons {
		d.SetPeers(peers)
	}
	out := struct{ HTTP, GRPC []string }{}
	for _, p := range peers {
		out.HTTP = append(out.HTTP, p.HTTPAddress)
		out.GRPC = append(out.GRPC, p.GRPCAddress)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { io.Copy(io.Discard, os.Stdin); close(done) }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	select {
	case <-done:
	case <-sig:
	}
	return nil
}
