-- A user's order list is their newest orders by id. Without this index PostgreSQL walked the primary
-- key backwards and filtered by user: for a user whose orders are sparse among everyone's (a few
-- hundred among 50,000) that read about 25,000 rows per list (3 ms each, far more under load);
-- with it, a list reads its 100 rows.
CREATE INDEX orders_user_newest ON orders (user_id, id DESC);
