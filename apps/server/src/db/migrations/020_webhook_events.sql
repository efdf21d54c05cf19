-- Webhook events (webhooks module): each URL chooses the events it receives and the format its
-- deliveries are written in (`simdock`, or `smsgate` for tools made for SMSGate).
ALTER TABLE webhooks ADD COLUMN events text[] NOT NULL DEFAULT ARRAY[
  'sms-incoming', 'message.received', 'message.sent', 'message.delivered', 'message.failed', 'campaign.finished'
]::text[];
ALTER TABLE webhooks ADD COLUMN format text NOT NULL DEFAULT 'simdock' CHECK (format IN ('simdock', 'smsgate'));
-- A program that registers webhooks (the SMSGate-compatible API) names each by its own id and
-- registers one per event, often to one URL: a URL is unique only among webhooks added on the page.
ALTER TABLE webhooks ADD COLUMN client_id text;
CREATE UNIQUE INDEX webhooks_user_client_id ON webhooks (user_id, client_id) WHERE client_id IS NOT NULL;
ALTER TABLE webhooks DROP CONSTRAINT webhooks_user_id_url_key;
CREATE UNIQUE INDEX webhooks_user_url ON webhooks (user_id, url) WHERE client_id IS NULL;

-- event_id: the event's own id, the same in every retry and redelivery of it (receivers de-duplicate
-- on it): `evt_` and the first 24 hex digits of SHA-256 of the ref (the server computes the same).
-- order_key: deliveries of one URL with the same key go out one after the other, in id order (the
-- events of one message: `message.sent` before `message.delivered`).
ALTER TABLE webhook_deliveries ADD COLUMN event_id text;
UPDATE webhook_deliveries SET event_id = 'evt_' || left(encode(sha256(convert_to(ref, 'UTF8')), 'hex'), 24);
ALTER TABLE webhook_deliveries ALTER COLUMN event_id SET NOT NULL;
ALTER TABLE webhook_deliveries ADD COLUMN order_key text;
-- The delivery job's check "no earlier delivery of this key still pending": one probe per candidate.
CREATE INDEX webhook_deliveries_order ON webhook_deliveries (webhook_id, order_key, id)
  WHERE status = 'pending' AND order_key IS NOT NULL;

-- Messaging: when a campaign's last message ended (delivered, failed or cancelled). Set once, by a
-- guarded update, so `campaign.finished` is emitted exactly once. Campaigns already over count as
-- finished (no event for them).
ALTER TABLE campaigns ADD COLUMN finished_at timestamptz;
UPDATE campaigns c SET finished_at = coalesce(
    (SELECT max(m.done_at) FROM messages m WHERE m.campaign_id = c.id), c.created_at)
 WHERE NOT EXISTS (
   SELECT 1 FROM messages m WHERE m.campaign_id = c.id AND m.status IN ('queued', 'sending', 'sent'));
-- The campaigns still open: a job finishes those whose messages all ended by a path that did not.
CREATE INDEX campaigns_open ON campaigns (id) WHERE finished_at IS NULL;
