package assetfiles

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/renditions"
	"github.com/catalogd/catalogd/server/store"
)

// Rendition kinds and the longest side of each (API.md "Assets").
var renditionKinds = []struct {
	kind    string
	longest int
}{
	{"thumbnail", renditions.Thumbnail},
	{"web_optimized", renditions.WebOptimized},
}

// Outcomes of a rendition job (catalogd_renditions_total{outcome}).
const (
	outcomeMade        = "made"        // the renditions were committed
	outcomeGone        = "gone"        // the original was deleted, or another worker finished first
	outcomeUnsupported = "unsupported" // not a JPEG, PNG, GIF or WebP image
	outcomeTooLarge    = "too_large"   // over 100 megapixels (or a side over the limit)
	outcomeCorrupt     = "corrupt"     // the image does not decode
	outcomeSkipped     = "skipped"     // the job's file is not an uploaded original
	outcomeRetry       = "retry"       // a transient failure; the job is due again later
	outcomeGaveUp      = "gave_up"     // transient failures maxAttempts times
	outcomeCanceled    = "canceled"    // cut by shutdown; the job is due again at once
)

var renditionOutcomes = []string{outcomeMade, outcomeGone, outcomeUnsupported, outcomeTooLarge, outcomeCorrupt,
	outcomeSkipped, outcomeRetry, outcomeGaveUp, outcomeCanceled}

// errGone: the job was finished by another worker, or its original deleted, while this one made
// the renditions. Returned from inside the transaction, so it is known not to have committed.
var errGone = errors.New("the rendition job is gone")

// errIntentClaimed: the blob collector had claimed the intent rows of this job's objects (the job
// outlived intentHold), so the objects may be gone; the transaction rolls back and the job is
// retried with new objects.
var errIntentClaimed = errors.New("the blob collector claimed this job's objects")

func (w *Worker) claimJobs(ctx context.Context, max int) ([]db.ClaimRenditionJobsRow, error) {
	return w.DB.Q.ClaimRenditionJobs(ctx, db.ClaimRenditionJobsParams{Max: int32(max), LeaseSeconds: w.Lease.Seconds()})
}

// render runs one claimed job to its end: renditions committed, job dropped (permanent refusal,
// attempts exhausted), retried later (transient failure) or given back (shutdown).
func (w *Worker) render(ctx context.Context, j db.ClaimRenditionJobsRow) {
	log := w.Log.With("tenant", j.TenantID, "file", j.FileUuid.String(), "attempt", j.Attempts)
	// The writes that end a job run on past a shutdown (bounded): a job given back must be given back.
	after := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	}
	drop := func(outcome string) {
		fctx, cancel := after()
		defer cancel()
		if _, err := w.DB.Q.DropRenditionJob(fctx, db.DropRenditionJobParams{TenantID: j.TenantID, FileUuid: j.FileUuid, LeaseUntil: j.LeaseUntil}); err != nil {
			log.Error("rendition job drop", "error", err.Error()) // the job is claimed again after its lease
		}
		w.Metrics.rendition(outcome)
	}
	if j.Kind != "original" || j.Status != "uploaded" {
		log.Info("rendition job skipped: not an uploaded original", "kind", j.Kind, "status", j.Status)
		drop(outcomeSkipped)
		return
	}
	if j.Attempts > maxAttempts { // its worker died maxAttempts times (see maxAttempts)
		log.Warn("rendition job given up: its attempts were all cut short")
		drop(outcomeGaveUp)
		return
	}

	jctx, cancel := context.WithTimeout(ctx, jobTimeout)
	defer cancel()
	start := time.Now()
	outcome, err := w.makeRenditions(jctx, j)
	switch {
	case err == nil:
		if outcome == outcomeMade {
			w.Metrics.duration(time.Since(start))
		}
		log.Debug("rendition job done", "outcome", outcome)
		w.Metrics.rendition(outcome)
	case errors.Is(err, renditions.ErrUnsupported), errors.Is(err, renditions.ErrTooLarge), errors.Is(err, renditions.ErrCorrupt):
		outcome = outcomeCorrupt
		if errors.Is(err, renditions.ErrUnsupported) {
			outcome = outcomeUnsupported
		} else if errors.Is(err, renditions.ErrTooLarge) {
			outcome = outcomeTooLarge
		}
		log.Info("no renditions for this original", "reason", outcome, "error", err.Error())
		drop(outcome)
	case ctx.Err() != nil: // shutdown: give the job back, uncounted
		fctx, cancel := after()
		defer cancel()
		if _, rerr := w.DB.Q.ReleaseRenditionJob(fctx, db.ReleaseRenditionJobParams{TenantID: j.TenantID, FileUuid: j.FileUuid, LeaseUntil: j.LeaseUntil}); rerr != nil {
			log.Warn("rendition job release", "error", rerr.Error()) // due again when the lease ends
		}
		w.Metrics.rendition(outcomeCanceled)
	case j.Attempts >= maxAttempts:
		log.Warn("rendition job given up", "error", err.Error())
		drop(outcomeGaveUp)
	default:
		delay := backoff(j.Attempts)
		log.Warn("rendition failed; will retry", "error", err.Error(), "retry_in", delay.String())
		fctx, cancel := after()
		defer cancel()
		if _, rerr := w.DB.Q.RetryRenditionJob(fctx, db.RetryRenditionJobParams{TenantID: j.TenantID, FileUuid: j.FileUuid,
			LeaseUntil: j.LeaseUntil, DelaySeconds: delay.Seconds(), LastError: truncate(err.Error(), 1000)}); rerr != nil {
			log.Error("rendition job retry", "error", rerr.Error()) // due again when the lease ends
		}
		w.Metrics.rendition(outcomeRetry)
	}
}

// planned is one rendition made and about to be stored.
type planned struct {
	id   uuid.UUID
	kind string
	key  string
	out  renditions.Output
	size int64
	sum  string
}

// makeRenditions reads the original, makes both renditions from one decode, stores them and
// commits them as asset files with their events. Objects it wrote and did not commit are
// deleted (or left to the collector when that fails). It returns the outcome of a job that
// ended without error: made or gone.
func (w *Worker) makeRenditions(ctx context.Context, j db.ClaimRenditionJobsRow) (string, error) {
	r, err := w.Store.NewReader(ctx, j.StorageKey)
	if err != nil {
		return "", fmt.Errorf("open the original: %w", err)
	}
	sizes := make([]int, len(renditionKinds))
	for i, k := range renditionKinds {
		sizes[i] = k.longest
	}
	outs, err := w.Pool.MakeSizes(ctx, r, sizes)
	r.Close()
	if err != nil {
		return "", err
	}

	plan := make([]planned, len(outs))
	keys := make([]string, len(outs))
	dir := path.Dir(j.StorageKey)
	for i, out := range outs {
		id := uuid.Must(uuid.NewV7())
		key := id.String()
		if dir != "." {
			key = dir + "/" + key
		}
		plan[i] = planned{id: id, kind: renditionKinds[i].kind, key: key, out: out}
		keys[i] = key
	}

	// Journal the keys before writing them: if this process dies between a Put and the commit,
	// the collector deletes the orphans after intentHold (see InsertBlobIntents).
	intents, err := w.DB.Q.InsertBlobIntents(ctx, db.InsertBlobIntentsParams{StorageKeys: keys, HoldSeconds: intentHold.Seconds()})
	if err != nil {
		return "", err
	}
	for i := range plan {
		p := &plan[i]
		if p.size, p.sum, err = w.Store.Put(ctx, p.key, p.out.ContentType, bytes.NewReader(p.out.Data)); err != nil {
			w.discard(ctx, keys, intents) // Put is atomic: nothing was committed under any key
			return "", fmt.Errorf("store the %s: %w", p.kind, err)
		}
		p.out.Data = nil
	}

	// Commit even if a shutdown began meanwhile: the work is done.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	var inserted []db.AssetFile
	err = w.DB.Tx(fctx, func(_ pgx.Tx, q *db.Queries) error {
		inserted = nil
		return w.commit(fctx, q, j, plan, intents, &inserted)
	})
	switch {
	case errors.Is(err, errGone):
		w.discard(fctx, keys, intents)
		return outcomeGone, nil
	case err != nil:
		// Whether it committed is unknown (a failed COMMIT may have applied): leave the objects
		// to the intents, which the commit would have removed.
		return "", err
	}
	committed := map[string]bool{}
	for _, row := range inserted {
		committed[row.StorageKey] = true
	}
	var extraKeys []string
	var extraIntents []int64
	for i, k := range keys {
		if !committed[k] {
			extraKeys, extraIntents = append(extraKeys, k), append(extraIntents, intents[i])
		}
	}
	if len(extraKeys) > 0 { // another worker committed these kinds first
		w.discard(fctx, extraKeys, extraIntents)
	}
	if len(inserted) == 0 {
		return outcomeGone, nil
	}
	return outcomeMade, nil
}

// commit is the transaction of finished renditions: the original share-locked (its deletion
// waits), the job deleted (gone: errGone), the renditions inserted (kinds already present are
// skipped), their intents withdrawn and one asset.file.uploaded event each.
func (w *Worker) commit(ctx context.Context, q *db.Queries, j db.ClaimRenditionJobsRow, plan []planned, intents []int64,
	inserted *[]db.AssetFile) error {
	src, err := q.LockRenditionSource(ctx, db.LockRenditionSourceParams{TenantID: j.TenantID, Uuid: j.FileUuid})
	if store.IsNoRows(err) || err == nil && (src.Status != "uploaded" || src.Kind != "original") {
		return errGone
	}
	if err != nil {
		return err
	}
	if n, err := q.FinishRenditionJob(ctx, db.FinishRenditionJobParams{TenantID: j.TenantID, FileUuid: j.FileUuid}); err != nil {
		return err
	} else if n == 0 {
		return errGone
	}
	now := store.NowFor(ctx)
	source := j.FileUuid
	p := db.InsertRenditionsParams{TenantID: j.TenantID, AssetUuid: j.AssetUuid, SourceFileUuid: &source, Now: now}
	for _, r := range plan {
		p.Uuids = append(p.Uuids, r.id)
		p.Kinds = append(p.Kinds, r.kind)
		p.FileNames = append(p.FileNames, renditionName(j.FileName, r.kind, r.out.ContentType))
		p.ContentTypes = append(p.ContentTypes, r.out.ContentType)
		p.Sizes = append(p.Sizes, r.size)
		p.Checksums = append(p.Checksums, r.sum)
		p.Widths = append(p.Widths, int32(r.out.Width))
		p.Heights = append(p.Heights, int32(r.out.Height))
		p.StorageKeys = append(p.StorageKeys, r.key)
	}
	rows, err := q.InsertRenditions(ctx, p)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		*inserted = rows
		return nil
	}
	var ids []int64
	evs := make([]events.Event, 0, len(rows))
	for _, row := range rows {
		for i, r := range plan {
			if r.key == row.StorageKey {
				ids = append(ids, intents[i])
			}
		}
		evs = append(evs, catalog.AssetFileEvent("uploaded", nil, &row)) // made uploaded: no state before
	}
	if n, err := q.DeleteBlobIntents(ctx, ids); err != nil {
		return err
	} else if n != int64(len(ids)) {
		return errIntentClaimed
	}
	if err := events.Record(ctx, q, j.TenantID, now, evs); err != nil {
		return err
	}
	*inserted = rows
	return nil
}

// discard deletes objects this worker wrote and will not commit, and withdraws their intents.
// An object that cannot be deleted keeps its intent: the collector deletes it after intentHold.
func (w *Worker) discard(ctx context.Context, keys []string, intents []int64) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	var done []int64
	for i, k := range keys {
		if err := w.Store.Delete(ctx, k); err != nil {
			w.Log.Warn("rendition object not deleted; the blob collector will", "key", k, "error", err.Error())
			continue
		}
		done = append(done, intents[i])
	}
	if len(done) > 0 {
		if _, err := w.DB.Q.DeleteBlobIntents(ctx, done); err != nil {
			// The collector deletes the (already deleted) keys after the hold: harmless.
			w.Log.Warn("rendition intents not withdrawn", "error", err.Error())
		}
	}
}

// maxFileName is the API's limit on fileName (characters).
const maxFileName = 255

// renditionName is the file name of a rendition: the original's name without its extension,
// "-<kind>" and the extension of the rendition's format ("beach.webp" → "beach-thumbnail.jpg"),
// shortened to maxFileName characters. An extension is a final dot and 1 to 5 letters or digits;
// anything else ("v1.2 final") is kept as part of the name.
func renditionName(original, kind, contentType string) string {
	ext := ".jpg"
	if contentType == "image/png" {
		ext = ".png"
	}
	base := original
	if i := strings.LastIndexByte(base, '.'); i > 0 && len(base)-i-1 >= 1 && len(base)-i-1 <= 5 && isAlnum(base[i+1:]) {
		base = base[:i]
	}
	suffix := "-" + kind + ext
	if keep := maxFileName - len(suffix); utf8.RuneCountInString(base) > keep {
		base = string([]rune(base)[:keep])
	}
	return base + suffix
}

func isAlnum(s string) bool {
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// truncate cuts s to at most n bytes on a character boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
