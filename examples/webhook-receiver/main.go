// Command webhook-receiver receives catalogd's product webhooks: it verifies each delivery's
// Standard Webhooks signature (and its timestamp within 5 minutes), and coalesces each burst of
// events about a product into one fetch of the product's current state (the specification's
// "Consumer guidance": a 2 s debounce per product, one fetch, one more when events arrived during
// it). It prints one JSON object per line: {"listening":…}, then {"delivery":…} for each verified
// delivery and {"fetched":…} for each fetch.
//
// catalogd refuses loopback targets unless it runs with CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true:
//
//	CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true make run
//	CATALOG_URL=http://localhost:8080 TOKEN=… WEBHOOK_SECRET=whsec_… go run ./examples/webhook-receiver
//
// and subscribe http://127.0.0.1:8081/ to product.updated (README.md, "Receiving webhooks").
// LISTEN (default 127.0.0.1:8081; 127.0.0.1:0 picks a free port) and DEBOUNCE_MS (default 2000)
// change the defaults. The receivers of the TypeScript and Python SDKs take the same settings and
// print the same lines.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/catalogd/catalogd/sdk/go/webhook"
)

// expand is what a product fetch includes and expands (include[x]=true&expand[x]=true), as the
// specification's guidance names it.
var expand = []string{"productAssets", "productAttributes", "productCategories", "productTags"}

func main() {
	base, token := env("CATALOG_URL", "http://localhost:8080"), os.Getenv("TOKEN")
	verifier, err := webhook.NewVerifier(os.Getenv("WEBHOOK_SECRET"))
	if err != nil {
		log.Fatalf("WEBHOOK_SECRET: %v", err)
	}
	ms, err := strconv.Atoi(env("DEBOUNCE_MS", "2000"))
	if err != nil || ms <= 0 {
		log.Fatalf("DEBOUNCE_MS: want a positive number of milliseconds")
	}
	debounce := time.Duration(ms) * time.Millisecond
	out := json.NewEncoder(os.Stdout)
	var mu sync.Mutex
	print := func(v any) { mu.Lock(); defer mu.Unlock(); _ = out.Encode(v) }

	// One fetch of a product's current state after a burst of events about it.
	products := webhook.NewCoalescer(debounce, func(ctx context.Context, productUUID string) {
		q := url.Values{}
		for _, x := range expand {
			q.Set("include["+x+"]", "true")
			q.Set("expand["+x+"]", "true")
		}
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/v1/products/"+url.PathEscape(productUUID)+"?"+q.Encode(), nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			print(map[string]any{"fetched": productUUID, "error": err.Error()})
			return
		}
		defer res.Body.Close()
		var product map[string]any
		body, _ := io.ReadAll(res.Body)
		_ = json.Unmarshal(body, &product)
		print(map[string]any{"fetched": productUUID, "status": res.StatusCode, "product": product})
	})
	defer products.Close()

	handler := verifier.Handler(func(d webhook.Delivery) error {
		p, err := d.Payload()
		if err != nil {
			return err
		}
		print(map[string]any{"delivery": d.ID, "type": d.EventType, "payload": p})
		if id := p["productUuid"]; id != "" {
			products.Signal(id) // any event about a product: its current state is fetched
		}
		return nil
	})
	ln, err := net.Listen("tcp", env("LISTEN", "127.0.0.1:8081"))
	if err != nil {
		log.Fatal(err)
	}
	print(map[string]any{"listening": fmt.Sprintf("http://%s/", ln.Addr())})
	log.Fatal(http.Serve(ln, handler))
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
