-- The server processes listening on each NOTIFY channel, by the backend of their listening
-- connection (db/db.ts). A process that finds no other listener hands its events to its own
-- listeners in memory after the commit instead of sending a NOTIFY that only it would hear back.
CREATE TABLE db_listeners (
  channel text NOT NULL,
  pid int NOT NULL,
  backend_start timestamptz,
  PRIMARY KEY (channel, pid)
);
