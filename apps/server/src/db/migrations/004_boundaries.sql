-- Billing: an admin adjustment records who made it.
ALTER TABLE ledger ADD COLUMN actor_id uuid REFERENCES users (id) ON DELETE SET NULL;

-- Gateways: the driver (vendor protocol) of each device; one kind today.
ALTER TABLE gateways ADD COLUMN driver text NOT NULL DEFAULT 'ejoin';

-- Rental: orders keep the service's code and name of the rent (as they keep the gateway name),
-- so order lists need no join to the catalogue.
ALTER TABLE orders ADD COLUMN service_code text;
ALTER TABLE orders ADD COLUMN service_name text;
UPDATE orders o SET service_code = s.code, service_name = s.name FROM services s WHERE s.id = o.service_id;
ALTER TABLE orders ALTER COLUMN service_code SET NOT NULL;
ALTER TABLE orders ALTER COLUMN service_name SET NOT NULL;

-- Sessions end when the password changes (or the account is deactivated): tokens carry the
-- version they were signed with, and a changed version refuses them.
ALTER TABLE users ADD COLUMN token_version integer NOT NULL DEFAULT 0;
