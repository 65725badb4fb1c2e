-- Scoring models re-score their users on a schedule, without training again.
-- Why: issue 21. A completed model's ratings went stale: a visitor who signed
--   up after the last run had no rating until someone rebuilt the model.
-- Cost: new columns only; models trained before keep their results and
--   start re-scoring once rebuilt (they have no `learned` model to reuse).
--
--   refresh             how often: daily (the default), weekly or off.
--   learned             the model as learned (features, weights, rating
--                       cut-offs): what a re-score needs. Written with the
--                       results of each completed run.
--   scored_at           when the users shown were scored: the run's end, then
--                       each re-score's.
--   rescore_claimed_at  a runner is re-scoring it since then (several workers
--                       processes share one database; a stale claim is
--                       taken again).
--   rescores            re-scores done: a re-score's users are tagged in
--                       scoring_users.generation with -rescores (runs use
--                       their positive generation), so the two never clash;
--                       results_generation names whichever is live.
ALTER TABLE scoring_models ADD COLUMN IF NOT EXISTS refresh text NOT NULL DEFAULT 'daily' CHECK (refresh IN ('daily', 'weekly', 'off'));
ALTER TABLE scoring_models ADD COLUMN IF NOT EXISTS learned jsonb;
ALTER TABLE scoring_models ADD COLUMN IF NOT EXISTS scored_at timestamptz;
ALTER TABLE scoring_models ADD COLUMN IF NOT EXISTS rescore_claimed_at timestamptz;
ALTER TABLE scoring_models ADD COLUMN IF NOT EXISTS rescores integer NOT NULL DEFAULT 0;
UPDATE scoring_models SET scored_at = trained_at WHERE scored_at IS NULL AND trained_at IS NOT NULL;
-- Serves the runners' look for a model due a re-score.
CREATE INDEX IF NOT EXISTS scoring_models_rescore ON scoring_models (status, scored_at);
