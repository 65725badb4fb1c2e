-- Scoring models: AI models that predict which users will reach a metric
-- (spec part 3 §2-§9), their training jobs and their results.
-- Why: issue 10. The gallery, the run modal and the model page read and
--   write them; the workers role trains them (api/src/scoring/runner.ts).
-- Cost: new tables only, nothing to backfill.
--
-- A model is its own job: status pending → running → completed or failed
-- (with the reason in `error`). Creating a model, 'Rebuild model' and a
-- settings change that alters what it learns queue a run by setting status
-- pending and bumping `generation`; a runner claims the oldest pending model
-- with FOR UPDATE SKIP LOCKED (several workers roles never take the same
-- one) and keeps `heartbeat_at` fresh while it trains. A run whose runner
-- died (a heartbeat older than the runner's stale limit) is claimed again,
-- at most a few times (`attempts`), then failed. A run writes its results
-- only if `generation` is still the one it claimed: a rebuild or a delete
-- during training makes them moot, and they are dropped.
--
-- Results are kept here, so they survive restarts: the summary, the
-- correlation table and the backtest as jsonb (bounded: one row per event
-- of the model, the backtest's top users), the backtest image as PNG bytes,
-- and one row per scored user in scoring_users, tagged with the run's
-- generation. A run writes its users in small statements outside any
-- transaction (PGlite runs on the event loop and serialises every query: one
-- transaction of 300,000 rows would hold the api for twenty seconds), then
-- makes them the live ones (results_generation) in one short transaction;
-- the users of older runs are deleted after, in small statements too. Per-user images are drawn
-- on request from that row's factors: a few milliseconds each, where storing
-- two PNGs for each of hundreds of thousands of users would cost gigabytes.

CREATE TABLE IF NOT EXISTS scoring_models (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- No foreign key: a deleted metric leaves its models, whose next run fails saying so.
  metric_id text NOT NULL,
  date_range text NOT NULL,
  excluded_audience jsonb NOT NULL,
  feature_selections jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'failed', 'completed')),
  error text,
  generation integer NOT NULL DEFAULT 1,
  attempts integer NOT NULL DEFAULT 0,
  queued_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz,
  -- The last completed run's results (null before the first).
  trained_at timestamptz,
  -- The generation whose scoring_users are the results shown.
  results_generation integer,
  total_users integer NOT NULL DEFAULT 0,
  ratings jsonb,
  summary jsonb,
  activity jsonb,
  backtest jsonb,
  backtest_image bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Serves the gallery (one organisation, newest first) and every look-up of one model within its organisation.
CREATE INDEX IF NOT EXISTS scoring_models_org_created ON scoring_models (org_id, created_at DESC);
-- Serves the runners' claim: the oldest pending run, and runs whose runner stopped beating.
CREATE INDEX IF NOT EXISTS scoring_models_queue ON scoring_models (status, queued_at);

-- One row per scored user of a model's run, by rank (1 = highest score); the
-- live ones are those of the model's results_generation. `factors` are the
-- user's largest contributions to their score, for and against
-- ([{ "name", "contribution", "count" }]), from which their images are drawn.
CREATE TABLE IF NOT EXISTS scoring_users (
  model_id text NOT NULL REFERENCES scoring_models (id) ON DELETE CASCADE,
  generation integer NOT NULL,
  rank integer NOT NULL,
  user_id text NOT NULL,
  name text NOT NULL DEFAULT '',
  score double precision NOT NULL,
  rating text NOT NULL,
  factors jsonb NOT NULL,
  -- Serves Model output's pages in rank order, and the deletion of a past run's users.
  PRIMARY KEY (model_id, generation, rank)
);
-- Serves a user's images (one user of one model's run).
CREATE INDEX IF NOT EXISTS scoring_users_user ON scoring_users (model_id, generation, user_id);
