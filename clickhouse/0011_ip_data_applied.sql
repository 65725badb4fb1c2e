-- 0011 ip data applied: which network data the stored visits were matched against.
--
-- Why: the identity worker stores each visit's match (0003, 0009). When the free network data
-- changes (a new version of the packages, fl0's classification rules, FL0_IP_DATA turned on or
-- off), or visits were stored before 0009, the stored matches are stale. The worker compares the
-- data it loaded with the last signature here when it starts, and if they differ re-matches every
-- stored visit in place (workers/src/identity/rematch.ts) and records the new signature.
-- Cost: one row per change. Backfill: none; the first start after this migration re-matches.
CREATE TABLE IF NOT EXISTS ip_data_applied
(
    signature String,
    visits UInt64,
    applied_at DateTime64(3, 'UTC')
)
ENGINE = MergeTree
ORDER BY applied_at;
