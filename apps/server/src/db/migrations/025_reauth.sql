-- A sign-in challenge remembers the account's token version when it was issued: a password change
-- or a reset (which bump the version) makes every challenge issued before it void.
ALTER TABLE second_factor_challenges ADD COLUMN token_version int NOT NULL DEFAULT 0;
