-- Admin jobs the workers role runs (issue 18): the refreshes and the copy.
-- Why: their code is the workers' (workers/src/jobs), and a refresh should not
--   hold an api process's event loop for minutes. The api writes the job's
--   row, still 'running' (one of a kind at a time, as before), with what it
--   was asked (params: the organisations); a workers process claims it
--   (claimed_at), beats and finishes it; the api answers once it is done.
--   Imports still run where their upload arrives (the api), claimed at once.
-- Cost: two columns; rows made before are taken as claimed.
ALTER TABLE admin_jobs ADD COLUMN IF NOT EXISTS params jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE admin_jobs ADD COLUMN IF NOT EXISTS claimed_at timestamptz;
UPDATE admin_jobs SET claimed_at = started_at WHERE claimed_at IS NULL;
