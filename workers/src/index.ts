export { startEventWriter, insertEventLines, DEAD_LETTER_TOPIC, EVENT_WRITER_GROUP, type EventWriterDeps } from './event-writer/index.ts'
export { startLexiconWorker, indexRecords, LEXICON_GROUP, type LexiconWorkerDeps } from './lexicon/index.ts'
export { recordKey } from './lexicon/shape.ts'
export { startIdentityWorker, storeHits, IDENTITY_GROUP, LINKS_TOPIC, type IdentityWorkerDeps } from './identity/index.ts'
export { createDeadLetter, isolatePoison, type DeadLetter, type PoisonRecord } from './poison/index.ts'
export { detectBots, startBotsWorker, MAX_MEDIAN_SPAN_MS, MAX_PAGES, MIN_SESSIONS, type BotScan, type BotsWorkerDeps } from './bots/index.ts'
export { checkLearnable, createScoringRunner, exclusionFilters, factorsImage, scoreImage, ScoringFailure, seededRandom, traitTypes, type Factor, type ScoringRunner, type StoredBacktest, type StoredSummary } from './scoring/index.ts'
export {
  awaitJob,
  createJobRunner,
  NO_WORKERS,
  QUEUED_JOB_KINDS,
  queueJob,
  type JobQueueDeps,
  type JobRunner,
  type QueuedJobKind,
  copyToExportDatabase,
  importBusinessIntents,
  importCookies,
  importIpToCompany,
  importUniversalTable,
  JobFailure,
  jobOf,
  Progress,
  refreshPagesAndActivities,
  refreshSessions,
  runJob,
  writeMmdb,
  type JobDeps,
  type JobOutcome,
  type JobWork,
  type MmdbValue,
} from './jobs/index.ts'
export { addressKey, cidrKeys, cidrOf, keyToText, V4_MAPPED_BASE } from './identity/ip.ts'
export { RangeTable, type RangeKind } from './identity/ranges.ts'
export { loadNetworks, loadRanges, type IpDataMode } from './identity/range-source.ts'
export { AsnTable, classifyNetwork, freeNetworkData, KNOWN_NETWORKS, NAMED_KINDS, Networks, Places, type FreeNetworkData, type NetworkKind, type NetworkMatch } from './identity/networks/index.ts'
export { hashEmail, storeLinks } from './identity/links.ts'
export { hitOf, type Hit } from './identity/visits.ts'
export { KnownVisits, visitsRewritten } from './identity/known-visits.ts'
export { NetworkRulesKeeper, refreshNetworkRules, startNetworkRulesWorker, type NetworkRulesChange, type NetworkRulesWorkerDeps } from './identity/network-rules.ts'
