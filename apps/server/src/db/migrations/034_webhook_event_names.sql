-- Webhook events share one naming scheme (`<thing>.<what happened>`, as `message.sent`): the rental's
-- `sms-incoming` is now `code.received`. Requests may still name it the old way (the contract maps
-- it); stored choices, the default and the delivery log use the new name.
UPDATE webhooks SET events = array_replace(events, 'sms-incoming', 'code.received')
 WHERE 'sms-incoming' = ANY (events);
ALTER TABLE webhooks ALTER COLUMN events SET DEFAULT ARRAY[
  'code.received', 'message.received', 'message.sent', 'message.delivered', 'message.failed', 'campaign.finished'
]::text[];
UPDATE webhook_deliveries SET event = 'code.received' WHERE event = 'sms-incoming';
