# fl0: one image for every role. FL0_ROLES picks what a container runs:
# unset, all three in one process (embedded: PGlite, the on-disk bus and chDB
# under /app/data); or ingest, workers, api (any subset) beside PostgreSQL,
# Kafka and a ClickHouse server, as docker-compose.yml runs them.
FROM node:20-bookworm-slim

WORKDIR /app
ENV HOST=0.0.0.0 \
    PORT=8080 \
    FL0_DATA_DIR=/app/data

# Dependencies first, so that a source change does not reinstall them. npm ci
# needs every workspace's package.json; all dependencies are installed, dev
# ones included: fl0 runs its TypeScript through tsx, and Vite builds the dashboard.
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY stores/package.json stores/
COPY query/package.json query/
COPY ingest/package.json ingest/
COPY workers/package.json workers/
COPY api/package.json api/
COPY server/package.json server/
COPY snippet/package.json snippet/
COPY demo/package.json demo/
COPY bench/package.json bench/
COPY dashboard/package.json dashboard/
RUN npm ci --no-audit --no-fund && npm cache clean --force

COPY . .
# The dashboard's production build (dashboard/dist). `npm start` runs prestart,
# which rebuilds only when dist/ is missing or older than its sources: here it is fresh.
RUN npm run build \
 && mkdir -p /app/data \
 && chown -R node:node /app/data

# Set only now: under NODE_ENV=production, npm ci would leave out the dev dependencies.
ENV NODE_ENV=production
USER node
EXPOSE 8080
# /healthz answers 200 on the ingest and api roles (a process running workers
# alone serves no HTTP; docker-compose.yml says how that service is checked),
# and 503 once the embedded bus log has stopped after a failed write: restart
# the container then (Docker itself restarts only a process that exits, so a
# probe of /healthz has to ask for it), and the log recovers from its last good
# record.
CMD ["npm", "start"]
