-- An arriving SMS's open orders are read by gateway port, in the same round trip as the SMS's
-- insert, before the SIM in the port (and so its number) is known; the matching checks the number.
CREATE INDEX orders_port_open ON orders (gateway_id, port) WHERE status IN ('WAIT_CODE', 'SUCCESS') AND closed_at IS NULL;
