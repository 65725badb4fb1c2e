-- 0017 network rules: identification's organisation-wide rules on the free network data,
-- kept as rows instead of worked out on every read (issue 19).
--
-- Why: with the free data alone, what an address names also depends on the organisation's
-- other visits (docs/identification.md, "What the visits say"): an address behind which 50
-- or more visitors came in a day is shared that day, a network seen from 50 or more /24s in
-- 30 days is a provider, and a network's domain is learned from the business e-mails of the
-- people identified from it. Each is a pass over all of the organisation's visits. The
-- resolution (query/src/identification/resolution.ts) worked them out in every query, even
-- one that resolves a page of 20 people: at the demo's 10 million events (1.3 million
-- visits) that was about 0.9 s of the People list's 1.7 s resolution (bench/README.md).
-- The rules change only as the visits (and the bots among them) do: the workers work them
-- out again when those change (workers/src/identity/network-rules.ts) and write the rows
-- that changed here; every resolution reads these few rows.
--
-- rule: 'shared_address' (address: the address as its /64, or itself for IPv4; day),
-- 'wide_network' (ip_asn), 'network_domain' (ip_asn, domain). The other key columns are
-- empty. ReplacingMergeTree(version, is_deleted): a rule that no longer holds gets a
-- tombstone, a domain learned anew replaces the old one; readers use FINAL (the demo's
-- 10 million events make 167 rules). ORDER BY (org_id, rule, ip_asn, address, day): readers read
-- one organisation's rules of one kind.
--
-- Cost: a row per network with a learned domain or too wide, and per shared address and day
-- (those add up over the days, as the visits do). Backfill: none here; the workers' first
-- pass after a start works out every organisation's rules (about 0.5 s for 1.3 million
-- visits on chDB), and until then the resolution reads none (no address shared, no network
-- wide, no domain learned).
CREATE TABLE IF NOT EXISTS network_rules
(
    org_id String,
    rule LowCardinality(String),
    address String,
    day Date,
    ip_asn UInt32,
    domain String,
    version UInt64,
    is_deleted UInt8
)
ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY (org_id, rule, ip_asn, address, day);
