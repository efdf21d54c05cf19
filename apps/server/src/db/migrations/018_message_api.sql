-- The messaging API: a send made by a program may carry the caller's own reference (an
-- Idempotency-Key, or the `id` an SMSGate client gives its message). One campaign per reference and
-- user: a retry finds the first send instead of sending again, and webhooks written in SMSGate's
-- format name the message by it.
ALTER TABLE campaigns ADD COLUMN client_ref text;
CREATE UNIQUE INDEX campaigns_user_client_ref ON campaigns (user_id, client_ref) WHERE client_ref IS NOT NULL;
