-- A GoIP box's own web pages (status, send, inbox) have their own account, apart from the lines'
-- password: SimDock uses them when the box's lines cannot reach SimDock over UDP (mode 'web'), and
-- for a Scan otherwise. The password is sealed with APP_SECRET like the gateway password.
ALTER TABLE gateways ADD COLUMN web_user text;
ALTER TABLE gateways ADD COLUMN web_password_enc text;
-- A GoIP box saved before it had a connection to choose was on UDP: say so.
UPDATE gateways SET mode = 'udp' WHERE driver = 'goip' AND mode IS NULL;
