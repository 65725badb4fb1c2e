-- 0007 callback link scope: which organisation a callback link counts for.
--
-- Why: a puid (the snippet's visitor id) names no organisation, and identity_links had
-- no organisation either: a link counted for every organisation whose visits carry the
-- puid, and anyone could write one through the open callback (issue 17). A partner may
-- now sign a callback for one organisation (docs/identification.md); the identity
-- worker stores its link with that organisation's id in org_id, and '' for an unsigned
-- callback or a cookie import (an admin's upload). The resolution
-- (api/src/identification/resolution.ts) counts a link for an organisation when
--   org_id is that organisation, or
--   org_id is '' and it came from the cookie import, or
--   org_id is '' and the organisation does not require signed callbacks.
--
-- org_id joins the sorting key, last: a signed link and the same link unsigned (or
-- signed for another organisation) are different rows, so a replayed unsigned callback
-- cannot replace a signed one in a merge. ClickHouse allows adding a column to the end
-- of the key in the ALTER that adds it (a metadata change, no rewrite; old parts read
-- it as ''). Rerunning is harmless: the column exists and the key is already this one.
ALTER TABLE identity_links ADD COLUMN IF NOT EXISTS org_id String, MODIFY ORDER BY (puid, up_id, hem, source, org_id);

-- The organisations that require signed callbacks: set and cleared by the API together
-- with the secret in the metadata store (callback_secrets, metadata migration 0015),
-- which the ingest reads to check signatures. The resolution runs in ClickHouse and
-- reads this table, so every reader of identification (grids, people, company pages,
-- the export) applies the rule without a second store. Written first on both setting
-- and removing, so that a failure between the two writes leaves the organisation as
-- its admin asked for unsigned links, and a retry brings the two together.
-- ReplacingMergeTree(at), ORDER BY org_id: the latest row per organisation stands
-- (read with FINAL); one row per organisation that ever set a secret.
-- Cost: a tiny table; backfill: none (no organisation had a secret before).
CREATE TABLE IF NOT EXISTS callback_link_policy
(
    org_id String,
    signed_only UInt8,
    at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(at)
ORDER BY org_id;
