-- Countries and operators. A SIM's country and operator are derived from what its device reports
-- (IMSI, operator text, ICCID, number) each time they are read; an admin's correction is kept here,
-- on the SIM's place, and dropped when another card is seen there.
ALTER TABLE sims ADD COLUMN country_override text CHECK (country_override ~ '^[A-Z]{2}$');
ALTER TABLE sims ADD COLUMN operator_override text;

-- The country a rental's number belonged to when it was rented (null: rented before countries).
ALTER TABLE orders ADD COLUMN country text;
ALTER TABLE orders ADD COLUMN operator text;

-- Rental prices per country, and per operator within a country ('' = every operator of it). A
-- service's own price stays the price of countries without one here.
CREATE TABLE service_country_prices (
  service_id uuid NOT NULL REFERENCES services (id) ON DELETE CASCADE,
  country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  operator text NOT NULL DEFAULT '',
  price numeric(14, 2) NOT NULL CHECK (price > 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (service_id, country, operator)
);

-- Message prices and permission per destination country (the recipient's number decides). Null
-- prices are the defaults of messaging_settings.
CREATE TABLE message_countries (
  country text PRIMARY KEY CHECK (country ~ '^[A-Z]{2}$'),
  sms_price_per_segment numeric(12, 4) CHECK (sms_price_per_segment >= 0),
  mms_price numeric(12, 4) CHECK (mms_price >= 0),
  enabled boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One row: whether countries not listed in message_countries may be sent to (on: as before).
CREATE TABLE catalogue_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  other_countries_enabled boolean NOT NULL DEFAULT true
);
INSERT INTO catalogue_settings DEFAULT VALUES;
