-- 0003 identification: who is behind the traffic (DESIGN.md "Visitor identification",
-- docs/identification.md). The partner data fl0 imports (IP ranges, the universal person
-- table, cookie links, business intents), the links the identity callback records, the
-- visits the identity worker keeps, and the pages and activities a refresh derives.
--
-- Why ClickHouse and not the metadata store: the identity worker runs in the workers
-- role, which opens only the bus and this store (server/src/stores.ts); the universal
-- table runs to millions of rows that the readers join with visits; and every reader
-- (people, company page, admin grids) is already a ClickHouse query.
--
-- Matching an address to a range. Three ways were weighed:
--   * an ip_trie dictionary: longest-prefix match on CIDR blocks only. Ranges given as
--     first and last address would have to be cut into blocks, and "the narrowest range
--     wins" is then no longer what the trie answers (a wide range's small block can
--     outbid a narrower range's large one); dictionaries also reload on their own clock.
--   * a range join in SQL (first_ip <= ip AND ip <= last_ip): ClickHouse has no interval
--     index, so every look-up reads the table; fine for the admin grid's one address, far
--     too slow for every event.
--   * chosen: the ranges are loaded into the identity worker and flattened into disjoint
--     segments, each owned by the narrowest range covering it, and each event's address is
--     found by a binary search (workers/src/identity/ranges.ts): exact under overlaps,
--     about a microsecond a look-up, and the same code serves the refresh job. The match is
--     stored with the visit, so readers never look it up again.
-- Addresses are stored as IPv6, IPv4 as IPv4-mapped (::ffff:a.b.c.d), so one sort order
-- holds both families and an IPv4-mapped IPv6 address is the IPv4 address it maps.
--
-- Idempotence: every table is a ReplacingMergeTree keyed on what makes a row the same
-- row, and the imports skip rows already stored as they are, so an import run twice
-- writes nothing the second time. Readers use FINAL (identified_visits needs it for its
-- tombstones; the partner tables are small enough, or read by their key).
--
-- Cost: eight new tables, empty until an import or the worker fills them. Backfill:
-- identified_visits, pages and activities are rebuilt from `events` by the admin jobs
-- "refresh sessions and people" and "refresh pages and activities"; the partner tables
-- come from their files.

-- ORDER BY (first_ip, last_ip): a range is its two ends (a re-import of the same range
-- replaces it, the newest import winning); the worker reads the table whole, the admin
-- grid pages through it in address order, and its address filter is a prefix read on
-- first_ip <= ip. kind: company, isp, hosting or mobile (only company ranges name a
-- visitor's company). source: csv or mmdb.
CREATE TABLE IF NOT EXISTS ip_to_company
(
    first_ip IPv6,
    last_ip IPv6,
    company_name String,
    domain String,
    kind LowCardinality(String),
    source LowCardinality(String),
    imported_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(imported_at)
ORDER BY (first_ip, last_ip);

-- The universal person table. ORDER BY up_id: the callback's and the grid's look-ups are
-- by up_id (the grid's filter is a prefix); row_hash lets an import skip unchanged rows.
CREATE TABLE IF NOT EXISTS universal_persons
(
    up_id String,
    first_name String,
    last_name String,
    job_title String,
    company_name String,
    company_domain String,
    linkedin_url String,
    business_email String,
    personal_email String,
    business_email_sha256 String,
    personal_email_sha256 String,
    employees Nullable(Float64),
    revenue Nullable(Float64),
    city String,
    region String,
    country String,
    row_hash String,
    imported_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(imported_at)
ORDER BY up_id;

-- Hashed e-mail to universal person. ORDER BY (hem, up_id): resolving a callback's or an
-- identify's hashed e-mail is a key look-up. A person whose address changed leaves the
-- old hash here; readers check it against the person's current hashes.
CREATE TABLE IF NOT EXISTS universal_hems
(
    hem String,
    up_id String,
    kind LowCardinality(String)
)
ENGINE = ReplacingMergeTree
ORDER BY (hem, up_id);

-- puid to up_id and/or hashed e-mail, from the identity callback (source 'callback') and
-- the cookie import ('cookies'). A set: ORDER BY (puid, up_id, hem, source) makes a
-- repeated callback or a replayed bus record the same row; readers look links up by puid.
CREATE TABLE IF NOT EXISTS identity_links
(
    puid String,
    up_id String,
    hem String,
    source LowCardinality(String),
    linked_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
ORDER BY (puid, up_id, hem, source);

-- Business intents: ORDER BY (company_domain, date, topic), the company page's look-up
-- (one domain, recent dates); a newer import's score replaces the older.
CREATE TABLE IF NOT EXISTS business_intents
(
    company_domain String,
    topic String,
    date Date,
    score Float64,
    imported_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree(imported_at)
ORDER BY (company_domain, date, topic);

-- Visits: one visitor's events (visitor_id: the anonymous id, else 'user:' and the user
-- id) with no gap over 30 minutes, with what the worker knew of them: the first user id
-- (the anonymous id's link), the latest puid, e-mail and name from identify calls, the
-- first address and the range it matched. Person and company are resolved from these
-- when read (workers/src/identity/resolution.ts), so imports count at once.
-- ORDER BY (org_id, visitor_id, started_at): the worker reads one visitor's visits
-- around a batch's times; readers read one organisation. A visit that grows earlier, or
-- merges with another, changes its key: the old row gets a tombstone (is_deleted = 1),
-- which FINAL hides. version: microseconds of the write (a refresh writes its start
-- time, so the worker's later writes win over it).
CREATE TABLE IF NOT EXISTS identified_visits
(
    org_id String,
    visitor_id String,
    started_at DateTime64(3, 'UTC'),
    ended_at DateTime64(3, 'UTC'),
    anonymous_id String,
    user_id String,
    puid String,
    ip String,
    ip_company String,
    ip_domain String,
    ip_kind LowCardinality(String),
    ip_range_first IPv6,
    ip_range_last IPv6,
    email String,
    name String,
    version UInt64,
    is_deleted UInt8,
    INDEX idx_puid puid TYPE bloom_filter(0.01) GRANULARITY 1,
    INDEX idx_user_id user_id TYPE bloom_filter(0.01) GRANULARITY 1
)
ENGINE = ReplacingMergeTree(version, is_deleted)
ORDER BY (org_id, visitor_id, started_at);

-- Page views with their time on page and visit, built by "refresh pages and
-- activities". ORDER BY (org_id, message_id): a page view is its event; the grid reads one
-- organisation, the copy job pages through it.
CREATE TABLE IF NOT EXISTS pages
(
    org_id String,
    message_id String,
    viewed_at DateTime64(3, 'UTC'),
    visitor_id String,
    anonymous_id String,
    user_id String,
    visit_started_at DateTime64(3, 'UTC'),
    url String,
    path String,
    title String,
    referrer String,
    time_on_page Nullable(UInt32),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (org_id, message_id);

-- Each visitor's day (UTC): page views, events, time on site (gaps of at most 30 minutes
-- between the day's events), first and last event. ORDER BY (org_id, visitor_id, date).
CREATE TABLE IF NOT EXISTS activities
(
    org_id String,
    visitor_id String,
    date Date,
    pages UInt32,
    events UInt32,
    time_spent UInt32,
    first_seen DateTime64(3, 'UTC'),
    last_seen DateTime64(3, 'UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (org_id, visitor_id, date);
