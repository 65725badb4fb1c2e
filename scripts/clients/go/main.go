// Sends a fixed set of calls to fl0 through Segment's Go library
// (github.com/segmentio/analytics-go/v3), with only the endpoint and a
// callback set and every other setting at its default, as its README shows.
//
//	fl0-go-client URL WRITE_KEY PREFIX
//
// It sends identify, track, page, screen, group and alias, with ids and message
// ids that start with PREFIX, closes the client (which flushes), and prints one
// JSON line: {"library", "version", "sent", "errors": [...]}.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/segmentio/analytics-go/v3"
)

type report struct {
	mu     sync.Mutex
	sent   int
	errors []string
}

func (r *report) Success(analytics.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent++
}

func (r *report) Failure(m analytics.Message, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf("%T: %v", m, err))
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: fl0-go-client URL WRITE_KEY PREFIX")
		os.Exit(2)
	}
	url, writeKey, prefix := os.Args[1], os.Args[2], os.Args[3]
	r := &report{}
	client, err := analytics.NewWithConfig(writeKey, analytics.Config{Endpoint: url, Callback: r})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	user := prefix + "-user"
	when := time.Date(2026, 2, 10, 9, 30, 0, 0, time.UTC)
	messages := []analytics.Message{
		analytics.Identify{UserId: user, MessageId: prefix + "-identify", Timestamp: when,
			Traits: analytics.NewTraits().SetEmail(prefix+"@acme.test").Set("plan", "pro").Set("employees", 120)},
		analytics.Track{UserId: user, MessageId: prefix + "-track", Timestamp: when, Event: "Report Created",
			Properties: analytics.NewProperties().Set("charts", 3).Set("shared", true).Set("title", "Q3 \u2603")},
		analytics.Page{UserId: user, MessageId: prefix + "-page", Timestamp: when, Name: "Pricing",
			Properties: analytics.NewProperties().SetURL("https://acme.test/pricing").SetPath("/pricing").SetTitle("Pricing")},
		analytics.Screen{UserId: user, MessageId: prefix + "-screen", Timestamp: when, Name: "Settings",
			Properties: analytics.NewProperties().Set("tab", "billing")},
		analytics.Group{UserId: user, MessageId: prefix + "-group", Timestamp: when, GroupId: prefix + "-acme",
			Traits: analytics.NewTraits().SetName("Acme").Set("industry", "Tools")},
		analytics.Alias{UserId: user, MessageId: prefix + "-alias", Timestamp: when, PreviousId: prefix + "-anon"},
	}
	for _, m := range messages {
		if err := client.Enqueue(m); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := client.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	errors := r.errors
	if errors == nil {
		errors = []string{}
	}
	out, _ := json.Marshal(map[string]any{"library": "analytics-go", "version": analytics.Version, "sent": r.sent, "errors": errors})
	fmt.Println(string(out))
}
