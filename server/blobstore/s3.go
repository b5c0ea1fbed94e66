package blobstore

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"gocloud.dev/blob"
	"gocloud.dev/blob/s3blob"
)

const (
	// openCheckTimeout bounds Open's bucket check when ctx allows longer: a black-holed endpoint
	// must not keep the service from reporting its misconfiguration.
	openCheckTimeout = 15 * time.Second
	// signTimeout bounds a presign, which does no I/O unless credentials must be fetched (an
	// instance role, say).
	signTimeout = 10 * time.Second
	// maxSinglePut is S3's largest single PUT; Put refuses more (it never uses multipart).
	maxSinglePut = 5 << 30
)

// openS3 sets s up as the s3 store. The URL goes to s3blob's URLOpener as it is, so every query
// parameter that opener knows works; explicit credentials, when given, replace the SDK's default
// chain in a copy of the client it built.
func (s *Store) openS3(ctx context.Context, cfg Config, u *url.URL) error {
	if u.Host == "" {
		return fmt.Errorf("blobstore: CATALOG_BLOB_URL %q names no bucket (s3://bucket?region=…)", cfg.URL)
	}
	if (cfg.AccessKeyID == "") != (cfg.SecretAccessKey == "") {
		return errors.New("blobstore: AccessKeyID and SecretAccessKey go together")
	}
	opener := &s3blob.URLOpener{}
	bucket, err := opener.OpenBucketURL(ctx, u)
	if err != nil {
		return fmt.Errorf("blobstore: CATALOG_BLOB_URL: %w", err)
	}
	var client *s3.Client
	if !bucket.As(&client) {
		_ = bucket.Close()
		return errors.New("blobstore: s3blob bucket exposes no *s3.Client")
	}
	if cfg.AccessKeyID != "" {
		_ = bucket.Close()
		client = s3.New(client.Options(), func(o *s3.Options) {
			o.Credentials = aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(cfg.AccessKeyID, cfg.SecretAccessKey, ""))
		})
		// opener.Options now holds what the URL asked for (encryption, checksum calculation).
		if bucket, err = s3blob.OpenBucket(ctx, client, u.Host, &opener.Options); err != nil {
			return fmt.Errorf("blobstore: %w", err)
		}
	}
	if client.Options().Region == "" {
		_ = bucket.Close()
		return fmt.Errorf("blobstore: CATALOG_BLOB_URL %q: no region (add region=… or set AWS_REGION)", cfg.URL)
	}
	where := "AWS S3"
	if ep := u.Query().Get("endpoint"); ep != "" {
		where = ep
	}
	if err := checkBucket(ctx, client, u.Host, where); err != nil {
		_ = bucket.Close()
		return err
	}
	s.backend, s.bucket, s.s3, s.s3Bucket = BackendS3, bucket, client, u.Host
	return nil
}

// checkBucket makes one HEAD request for the bucket, without retries, and turns a failure into an
// error that says what to fix.
func checkBucket(ctx context.Context, client *s3.Client, bucket, where string) error {
	ctx, cancel := context.WithTimeout(ctx, openCheckTimeout)
	defer cancel()
	_, err := client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(bucket)},
		func(o *s3.Options) { o.RetryMaxAttempts = 1 })
	if err == nil {
		return nil
	}
	switch status := httpStatus(err); {
	case status == http.StatusNotFound:
		return fmt.Errorf("blobstore: bucket %q does not exist at %s: %w", bucket, where, err)
	case status == http.StatusForbidden || status == http.StatusUnauthorized:
		return fmt.Errorf("blobstore: access to bucket %q at %s denied (check the credentials: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY): %w", bucket, where, err)
	case status == http.StatusMovedPermanently:
		return fmt.Errorf("blobstore: bucket %q at %s is in another region than the URL's: %w", bucket, where, err)
	case status != 0:
		return fmt.Errorf("blobstore: bucket %q at %s answered HTTP %d: %w", bucket, where, status, err)
	}
	return fmt.Errorf("blobstore: bucket %q at %s is unreachable: %w", bucket, where, err)
}

// httpStatus is the HTTP status of an S3 error response, 0 when none arrived.
func httpStatus(err error) int {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

// isS3NotFound reports whether err says that the object (or bucket) does not exist.
func isS3NotFound(err error) bool {
	var nf *types.NotFound
	var nsk *types.NoSuchKey
	var ae smithy.APIError
	if errors.As(err, &nf) || errors.As(err, &nsk) {
		return true
	}
	if errors.As(err, &ae) && (ae.ErrorCode() == "NotFound" || ae.ErrorCode() == "NoSuchKey") {
		return true
	}
	return httpStatus(err) == http.StatusNotFound
}

// signedUploadS3 pre-signs a PutObject. The S3 presign client is called directly rather than
// through the bucket's SignedURL: that returns the URL alone, and a client needs the headers the
// signature covers too (PresignedHTTPRequest.SignedHeader). The content type goes into the input
// as s3blob's BeforeSign would put it (s3blob refuses SignedURLOptions.ContentType for PUT).
func (s *Store) signedUploadS3(key, ct string, size int64, sum string, ttl time.Duration) (Upload, error) {
	in := &s3.PutObjectInput{Bucket: aws.String(s.s3Bucket), Key: aws.String(key), ContentType: aws.String(ct)}
	if size > 0 {
		in.ContentLength = aws.Int64(size)
	} else if sum == "" {
		// SigV4 leaves a zero Content-Length unsigned; the empty body's digest binds it instead.
		sum = emptySHA256
	}
	if sum != "" {
		in.ChecksumSHA256 = aws.String(hexToBase64(sum))
	}
	ctx, cancel := context.WithTimeout(context.Background(), signTimeout)
	defer cancel()
	p, err := s3.NewPresignClient(s.s3).PresignPutObject(ctx, in, s3.WithPresignExpires(ttl))
	if err != nil {
		return Upload{}, fmt.Errorf("blobstore: presign: %w", err)
	}
	exp, err := presignedExpiry(p.URL)
	if err != nil {
		return Upload{}, err
	}
	h := map[string]string{}
	for name, vals := range p.SignedHeader {
		// Host and Content-Length are part of sending the request to URL with the body.
		if name = http.CanonicalHeaderKey(name); name != "Host" && name != "Content-Length" {
			h[name] = strings.Join(vals, ",")
		}
	}
	return Upload{URL: p.URL, Method: p.Method, Headers: h, ExpiresAt: exp}, nil
}

// signedDownloadS3 pre-signs a GetObject through the bucket's SignedURL.
func (s *Store) signedDownloadS3(key, disposition string, ttl time.Duration) (string, time.Time, error) {
	ctx, cancel := context.WithTimeout(context.Background(), signTimeout)
	defer cancel()
	opts := &blob.SignedURLOptions{Method: http.MethodGet, Expiry: ttl}
	if disposition != "" { // response-content-disposition, part of the signed query
		opts.BeforeSign = func(as func(any) bool) error {
			var in *s3.GetObjectInput
			if as(&in) {
				in.ResponseContentDisposition = aws.String(disposition)
			}
			return nil
		}
	}
	u, err := s.bucket.SignedURL(ctx, key, opts)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("blobstore: presign: %w", err)
	}
	exp, err := presignedExpiry(u)
	return u, exp, err
}

// presignedExpiry reads the instant a SigV4 pre-signed URL stops working: X-Amz-Date plus
// X-Amz-Expires seconds, exactly as S3 computes it.
func presignedExpiry(rawURL string) (time.Time, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return time.Time{}, fmt.Errorf("blobstore: presigned URL: %w", err)
	}
	q := u.Query()
	signed, err := time.Parse("20060102T150405Z", q.Get("X-Amz-Date"))
	secs, err2 := strconv.ParseInt(q.Get("X-Amz-Expires"), 10, 64)
	if err != nil || err2 != nil {
		return time.Time{}, errors.New("blobstore: presigned URL lacks X-Amz-Date or X-Amz-Expires")
	}
	return signed.Add(time.Duration(secs) * time.Second), nil
}

// statS3 heads the object with checksum mode on, so that S3's own SHA-256 comes back when the
// object has one as a whole (FULL_OBJECT; a multipart object's COMPOSITE checksum is a digest of
// digests, not the content's).
func (s *Store) statS3(ctx context.Context, key string) (Info, bool, error) {
	out, err := s.s3.HeadObject(ctx, &s3.HeadObjectInput{
		Bucket: aws.String(s.s3Bucket), Key: aws.String(key), ChecksumMode: types.ChecksumModeEnabled,
	})
	if isS3NotFound(err) {
		return Info{}, false, nil
	}
	if err != nil {
		return Info{}, false, err
	}
	info := Info{Size: aws.ToInt64(out.ContentLength), ContentType: aws.ToString(out.ContentType), ModTime: aws.ToTime(out.LastModified)}
	if c := aws.ToString(out.ChecksumSHA256); c != "" && out.ChecksumType != types.ChecksumTypeComposite && !strings.Contains(c, "-") {
		if b, err := base64.StdEncoding.DecodeString(c); err == nil && len(b) == 32 {
			info.SHA256 = hex.EncodeToString(b)
		}
	}
	return info, true, nil
}

// putS3 sends the spooled bytes in one PutObject carrying their SHA-256, which S3 checks against
// what arrives and keeps as the object's checksum (statS3 reads it back). A single PUT is atomic:
// if it fails or ctx is cancelled, no object appears. The payload is sent UNSIGNED-PAYLOAD: the
// SDK would otherwise read the whole file once more to hash it for the signature (over plain
// HTTP), while x-amz-checksum-sha256, which is signed, already binds the content.
func (s *Store) putS3(ctx context.Context, key, ct, sum string, size int64, src io.ReadSeeker) error {
	if size > maxSinglePut {
		return fmt.Errorf("blobstore: Put of %d bytes exceeds S3's single PUT limit", size)
	}
	_, err := s.s3.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(s.s3Bucket), Key: aws.String(key), ContentType: aws.String(ct),
		ContentLength: aws.Int64(size), ChecksumSHA256: aws.String(hexToBase64(sum)), Body: src,
	}, s3.WithAPIOptions(v4.SwapComputePayloadSHA256ForUnsignedPayloadMiddleware))
	if err != nil {
		return fmt.Errorf("blobstore: put %s: %w", key, err)
	}
	return nil
}

func hexToBase64(sum string) string {
	b, _ := hex.DecodeString(sum)
	return base64.StdEncoding.EncodeToString(b)
}

// moveS3 is Move on S3: copy, then delete the source.
func (s *Store) moveS3(ctx context.Context, from, to string) error {
	if _, exists, err := s.statS3(ctx, to); err != nil {
		return fmt.Errorf("blobstore: move %s: %w", from, err)
	} else if exists {
		return nil
	}
	_, err := s.s3.CopyObject(ctx, &s3.CopyObjectInput{
		Bucket: aws.String(s.s3Bucket), Key: aws.String(to), CopySource: aws.String(s.s3Bucket + "/" + from),
		ChecksumAlgorithm: types.ChecksumAlgorithmSha256,
	})
	if isS3NotFound(err) {
		return fmt.Errorf("%w: %s", ErrNotFound, from)
	}
	if err != nil {
		return fmt.Errorf("blobstore: move %s: %w", from, err)
	}
	if _, err := s.s3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.s3Bucket), Key: aws.String(from)}); err != nil && !isS3NotFound(err) {
		return fmt.Errorf("blobstore: move %s: %w", from, err)
	}
	return nil
}
