import type { Http } from './http.ts'
import type {
  ActivityEvents,
  BacktestPredictions,
  Correlation,
  CreatedScoringModel,
  CreateScoringModel,
  FeatureSelections,
  ModelOutput,
  SaveScoringSettings,
  ScoringCheck,
  ScoringCheckRequest,
  ScoringMetric,
  ScoringModelDetail,
  ScoringModelList,
  ScoringModelQueued,
  ScoringModelRatings,
  ScoringSettings,
  UserImages,
} from './types.ts'

const base = (code: string) => `/api-v2/orgs/${encodeURIComponent(code)}/scoring`
const model = (code: string, id: string) => `${base(code)}/scoring-model/${encodeURIComponent(id)}`
const userImages = (code: string, id: string, userId: string) => `${model(code, id)}/model-output/${encodeURIComponent(userId)}/images`

/**
 * The scoring calls (part 3 §7 Scoring), typed by @fl0/contracts/scoring.
 * Reads take the caller's AbortSignal; writes go through the serial queue.
 * The images are addresses for <img>: the session cookie goes with them as
 * with any same-origin request.
 */
export function createScoringApi(http: Http) {
  return {
    list: (code: string, signal?: AbortSignal) => http.get<ScoringModelList>(`${base(code)}/scoring-models`, { signal }),
    ratings: (code: string, id: string, signal?: AbortSignal) => http.get<ScoringModelRatings>(`${base(code)}/scoring-models/${encodeURIComponent(id)}`, { signal }),
    metrics: (code: string, signal?: AbortSignal) => http.get<ScoringMetric[]>(`${base(code)}/scoring-models/metrics`, { signal }),
    /** Whether a metric and date range can be learned (the run dialog asks as the fields change): abortable, and not queued behind saves. */
    check: (code: string, body: ScoringCheckRequest, signal?: AbortSignal) => http.post<ScoringCheck>(`${base(code)}/scoring-models/check`, body, { signal, queued: false }),
    create: (code: string, body: CreateScoringModel) => http.post<CreatedScoringModel>(`${base(code)}/scoring-models/create-new-model`, body),
    get: (code: string, id: string, signal?: AbortSignal) => http.get<ScoringModelDetail>(model(code, id), { signal }),
    remove: (code: string, id: string) => http.delete<void>(model(code, id)),
    settings: (code: string, id: string, signal?: AbortSignal) => http.get<ScoringSettings>(`${model(code, id)}/settings`, { signal }),
    saveSettings: (code: string, id: string, body: SaveScoringSettings) => http.post<ScoringModelQueued>(`${model(code, id)}/settings/saveSettings`, body),
    /** Only 'Rebuild model' sends the selections (part 3 §4). */
    rebuild: (code: string, id: string, featureSelections: FeatureSelections) => http.post<ScoringModelQueued>(`${model(code, id)}/rebuild-model`, { featureSelections }),
    correlation: (code: string, id: string, signal?: AbortSignal) => http.get<Correlation>(`${model(code, id)}/correlation`, { signal }),
    activityEvents: (code: string, id: string, page: number, search: string, signal?: AbortSignal) =>
      http.get<ActivityEvents>(`${model(code, id)}/correlation/activity/events`, { query: { page, search: search || undefined }, signal }),
    modelOutput: (code: string, id: string, page: number, search: string, signal?: AbortSignal) =>
      http.get<ModelOutput>(`${model(code, id)}/model-output`, { query: { page, search: search || undefined }, signal }),
    userImages: (code: string, id: string, userId: string, signal?: AbortSignal) => http.get<UserImages>(userImages(code, id, userId), { signal }),
    userImageUrl: (code: string, id: string, userId: string, file: string) => `${userImages(code, id, userId)}/${encodeURIComponent(file)}`,
    backtestImageUrl: (code: string, id: string) => `${model(code, id)}/backtest-image`,
    backtestPredictions: (code: string, id: string, signal?: AbortSignal) => http.get<BacktestPredictions>(`${model(code, id)}/backtest-predictions`, { signal }),
  }
}
