import { minimise } from './lbfgs.ts'
import { selectRows, type SparseRows } from './sparse.ts'
import { logLoss } from './metrics.ts'
import { stratifiedSplit } from './split.ts'

/**
 * L2-regularised logistic regression on standardised features, trained with
 * L-BFGS over a sparse matrix.
 *
 * Why this learner, written here: a model must rank users and explain the
 * ranking as "which events and values push towards the metric". A linear
 * model on standardised log counts does both with one number per factor
 * (its coefficient is the importance the Correlation tab shows, and a user's
 * factors are the terms of their own score), its scores are calibrated
 * probabilities (the ratings read them as such), and it trains on hundreds of
 * thousands of users in seconds. JavaScript's machine-learning packages are
 * not fit for it: ml-logistic-regression (mljs) was last published six years
 * ago, is dense (users × features in memory) and runs plain gradient descent
 * with a fixed step and no regularisation to tune; TensorFlow.js needs a
 * native build (tfjs-node) or is slow and heavy in pure JS for this, and
 * nothing else maintained offers regularised logistic regression. The whole
 * learner is the objective below and L-BFGS (lbfgs.ts), each tested alone.
 *
 * The model, for a user's feature counts x (already log1p'd by the caller):
 *
 *   p = σ(b + Σ_j w_j (x_j − μ_j) / σ_j)
 *
 * with μ and σ each feature's mean and standard deviation over the training
 * users. It minimises the mean log loss plus (λ/2)·‖w‖² (the intercept is not
 * penalised). Standardising puts every feature on one scale, so one λ fits
 * all and w_j reads as "log-odds per standard deviation". The sparse matrix
 * is never centred: (x − μ)/σ is folded into the weights (a_j = w_j/σ_j and
 * c = b − Σ a_j μ_j), so each pass costs the non-zeros only. A feature that
 * never varies among the training users has σ = 0 and keeps w = 0.
 *
 * No class weights: the scores stay probabilities of the real base rate.
 */
export interface LogisticModel {
  intercept: number
  /** Per standardised feature: the importance. */
  weights: Float64Array
  means: Float64Array
  stds: Float64Array
  lambda: number
  iterations: number
  converged: boolean
}

export interface FitOptions {
  lambda: number
  maxIterations?: number
  /** Rows between two yields to the event loop: a pass never holds it for long. */
  yieldEvery?: number
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

/** log(1 + e^z), without overflow. */
const softplus = (z: number) => (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)))
export const sigmoid = (z: number) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)))

/** Each column's mean and standard deviation over the rows (zeros included). */
export function columnMoments(X: SparseRows): { means: Float64Array; stds: Float64Array } {
  const sum = new Float64Array(X.cols)
  const sumSq = new Float64Array(X.cols)
  for (let k = 0; k < X.indices.length; k++) {
    const v = X.values[k]!
    sum[X.indices[k]!]! += v
    sumSq[X.indices[k]!]! += v * v
  }
  const means = new Float64Array(X.cols)
  const stds = new Float64Array(X.cols)
  const n = Math.max(1, X.rows)
  for (let j = 0; j < X.cols; j++) {
    means[j] = sum[j]! / n
    const variance = sumSq[j]! / n - means[j]! * means[j]!
    stds[j] = variance > 1e-12 ? Math.sqrt(variance) : 0
  }
  return { means, stds }
}

export async function fitLogistic(X: SparseRows, y: Uint8Array, options: FitOptions): Promise<LogisticModel> {
  if (y.length !== X.rows) throw new Error(`${X.rows} rows but ${y.length} labels`)
  if (X.rows === 0) throw new Error('no rows to learn from')
  const { means, stds } = columnMoments(X)
  const d = X.cols
  const n = X.rows
  const lambda = options.lambda
  const yieldEvery = options.yieldEvery ?? 10_000
  const a = new Float64Array(d)
  const residualDot = new Float64Array(d)

  // x = [w_0 … w_{d-1}, b]
  const objective = async (x: Float64Array, gradient: Float64Array): Promise<number> => {
    let c = x[d]!
    for (let j = 0; j < d; j++) {
      a[j] = stds[j]! > 0 ? x[j]! / stds[j]! : 0
      c -= a[j]! * means[j]!
    }
    residualDot.fill(0)
    let loss = 0
    let residualSum = 0
    for (let r = 0; r < n; r++) {
      if (r > 0 && r % yieldEvery === 0) await yieldToLoop()
      let z = c
      const end = X.indptr[r + 1]!
      for (let k = X.indptr[r]!; k < end; k++) z += a[X.indices[k]!]! * X.values[k]!
      const label = y[r]!
      loss += softplus(z) - label * z
      const residual = sigmoid(z) - label
      residualSum += residual
      for (let k = X.indptr[r]!; k < end; k++) residualDot[X.indices[k]!]! += residual * X.values[k]!
    }
    let penalty = 0
    for (let j = 0; j < d; j++) {
      gradient[j] = stds[j]! > 0 ? (residualDot[j]! / n - (means[j]! * residualSum) / n) / stds[j]! + lambda * x[j]! : 0
      penalty += x[j]! * x[j]!
    }
    gradient[d] = residualSum / n
    return loss / n + (lambda / 2) * penalty
  }

  // Start from the base rate: the intercept alone at its optimum.
  let positives = 0
  for (let r = 0; r < n; r++) positives += y[r]!
  const rate = Math.min(1 - 1e-6, Math.max(1e-6, positives / n))
  const x0 = new Float64Array(d + 1)
  x0[d] = Math.log(rate / (1 - rate))
  const result = await minimise(objective, x0, { maxIterations: options.maxIterations ?? 500 })
  return { intercept: result.x[d]!, weights: result.x.slice(0, d), means, stds, lambda, iterations: result.iterations, converged: result.converged }
}

/** The margin (log-odds) of row r. */
export function marginOf(model: LogisticModel, X: SparseRows, r: number): number {
  let z = model.intercept
  for (let j = 0; j < model.weights.length; j++) if (model.stds[j]! > 0) z -= (model.weights[j]! * model.means[j]!) / model.stds[j]!
  for (let k = X.indptr[r]!; k < X.indptr[r + 1]!; k++) {
    const j = X.indices[k]!
    if (model.stds[j]! > 0) z += (model.weights[j]! * X.values[k]!) / model.stds[j]!
  }
  return z
}

/** Every row's probability. */
export async function predict(model: LogisticModel, X: SparseRows, yieldEvery = 10_000): Promise<Float64Array> {
  const d = model.weights.length
  const a = new Float64Array(d)
  let c = model.intercept
  for (let j = 0; j < d; j++) {
    a[j] = model.stds[j]! > 0 ? model.weights[j]! / model.stds[j]! : 0
    c -= a[j]! * model.means[j]!
  }
  const out = new Float64Array(X.rows)
  for (let r = 0; r < X.rows; r++) {
    if (r > 0 && r % yieldEvery === 0) await yieldToLoop()
    let z = c
    for (let k = X.indptr[r]!; k < X.indptr[r + 1]!; k++) z += a[X.indices[k]!]! * X.values[k]!
    out[r] = sigmoid(z)
  }
  return out
}

/**
 * Row r's score, term by term: each feature's w_j (x_j − μ_j) / σ_j, its push
 * on the log-odds compared with the average training user. They sum, with the
 * intercept, to the row's margin. Dense: every feature has a term, since not
 * doing an event the average user does is a term too.
 */
export function contributions(model: LogisticModel, X: SparseRows, r: number): Float64Array {
  const d = model.weights.length
  const out = new Float64Array(d)
  for (let j = 0; j < d; j++) if (model.stds[j]! > 0) out[j] = (-model.weights[j]! * model.means[j]!) / model.stds[j]!
  for (let k = X.indptr[r]!; k < X.indptr[r + 1]!; k++) {
    const j = X.indices[k]!
    if (model.stds[j]! > 0) out[j]! += (model.weights[j]! * X.values[k]!) / model.stds[j]!
  }
  return out
}

/** The penalties tried, weakest first: from barely regularised to strongly. */
export const LAMBDAS = [1e-4, 1e-3, 1e-2, 1e-1]

/**
 * Chooses λ by the log loss on a fifth of the training users held back
 * (stratified, seeded), then fits on every training user with it. The users
 * the caller holds out for accuracy are not seen here.
 */
export async function fitLogisticTuned(X: SparseRows, y: Uint8Array, options: { seed: number; lambdas?: number[]; yieldEvery?: number } = { seed: 1 }): Promise<LogisticModel & { validationLoss: number }> {
  const lambdas = options.lambdas ?? LAMBDAS
  const split = stratifiedSplit(y, 0.2, options.seed)
  let best = { lambda: lambdas[0]!, loss: Infinity }
  if (split.test.length > 0 && split.train.length > 0) {
    const Xt = selectRows(X, split.train)
    const yt = Uint8Array.from(split.train, (i) => y[i]!)
    const Xv = selectRows(X, split.test)
    const yv = Uint8Array.from(split.test, (i) => y[i]!)
    for (const lambda of lambdas) {
      const m = await fitLogistic(Xt, yt, { lambda, yieldEvery: options.yieldEvery })
      const loss = logLoss(await predict(m, Xv), yv)
      if (loss < best.loss) best = { lambda, loss }
    }
  }
  const model = await fitLogistic(X, y, { lambda: best.lambda, yieldEvery: options.yieldEvery })
  return { ...model, validationLoss: best.loss }
}
