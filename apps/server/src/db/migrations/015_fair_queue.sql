-- A fair dispatch queue: users with queued messages take the SIMs in turn (round-robin), each
-- user's campaigns in turn within the user's share (chat replies, with no campaign, are one more
-- group of the user), first in first out within a campaign. One user's 10,000-message campaign no
-- longer holds another user's 2-message send back for hours.

-- The dispatcher's reads (dispatch.queries.ts lockQueued): a skip scan over the (user, group)
-- pairs that have queued messages, then each group's first messages in id order. The filters the
-- dispatcher applies (not_before, the pinned SIM) ride along, and campaign_id (an expression alone
-- does not allow it), so these reads are index-only scans.
CREATE INDEX messages_fair_queue ON messages (user_id, (coalesce(campaign_id, 0)), id)
  INCLUDE (campaign_id, not_before, pinned_sim_id) WHERE status = 'queued';

-- When each user, and each group of a user, last had a message claimed: the turn continues across
-- ticks and dispatcher processes with whoever waited longest (a group never served goes first).
-- grp: -1 the user as a whole, 0 the user's chat replies, else a campaign id. served: the claim's
-- number (messaging_turn_seq) × 2^20 + the message's place in that claim, so later is larger.
CREATE TABLE messaging_turns (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  grp bigint NOT NULL,
  served bigint NOT NULL,
  PRIMARY KEY (user_id, grp)
);
CREATE SEQUENCE messaging_turn_seq;
