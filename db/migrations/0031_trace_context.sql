-- The W3C trace context (a traceparent header value) of the write that recorded an event, kept with
-- the event in the outbox and copied to each of its deliveries, so that the webhook delivery it
-- causes continues that trace (docs/operations.md "Traces"). NULL when tracing is off or the write
-- had no trace.
ALTER TABLE events ADD COLUMN traceparent text;
ALTER TABLE webhook_deliveries ADD COLUMN traceparent text;
