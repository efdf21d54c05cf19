-- When the carrier accepted an outgoing message, for devices that report it apart from the
-- handset's delivery (an SMSGate phone's `sms:sent`; its `sms:delivered` is the handset's). Such a
-- message stays `sent` until the handset's report: `delivered`, or `failed` (refunded) when the
-- delivery report fails. It is no longer in flight: the result timeout does not fail it, and its
-- campaign may finish. NULL: no such report (the device took it, or the device does not tell
-- the two apart).
ALTER TABLE messages ADD COLUMN carrier_at timestamptz;
