import { describe, expect, it } from 'vitest'
import { minimise } from './lbfgs.ts'
import { contributions, fitLogistic, fitLogisticTuned, marginOf, predict, sigmoid } from './logistic.ts'
import { accuracy, auc, balancedAccuracy, evaluate, logLoss } from './metrics.ts'
import { denseRow, selectRows, SparseRowsBuilder, type SparseRows } from './sparse.ts'
import { seededRandom, stratifiedSplit } from './split.ts'

function matrix(rows: number[][]): SparseRows {
  const b = new SparseRowsBuilder(rows[0]!.length)
  for (const r of rows) b.add(r.map((_, j) => j), r)
  return b.build()
}

/** A slow, obviously right reference: dense gradient descent on the same objective, run to convergence. */
function referenceFit(rows: number[][], y: number[], lambda: number) {
  const n = rows.length
  const d = rows[0]!.length
  const mean = Array.from({ length: d }, (_, j) => rows.reduce((s, r) => s + r[j]!, 0) / n)
  const std = Array.from({ length: d }, (_, j) => Math.sqrt(rows.reduce((s, r) => s + (r[j]! - mean[j]!) ** 2, 0) / n))
  const z = rows.map((r) => r.map((v, j) => (v - mean[j]!) / std[j]!))
  const w = new Array<number>(d).fill(0)
  let b = 0
  for (let it = 0; it < 200_000; it++) {
    const gw = new Array<number>(d).fill(0)
    let gb = 0
    for (let i = 0; i < n; i++) {
      const p = sigmoid(b + z[i]!.reduce((s, v, j) => s + v * w[j]!, 0))
      const r = p - y[i]!
      gb += r / n
      for (let j = 0; j < d; j++) gw[j]! += (r * z[i]![j]!) / n
    }
    for (let j = 0; j < d; j++) w[j]! -= 0.5 * (gw[j]! + lambda * w[j]!)
    b -= 0.5 * gb
    if (Math.max(Math.abs(gb), ...gw.map((g, j) => Math.abs(g + lambda * w[j]!))) < 1e-9) break
  }
  return { w, b }
}

/** Users with counts of `d` events; the outcome follows the first two (a planted rule), the rest is noise. */
function synthetic(n: number, d: number, seed: number, separable: boolean) {
  const random = seededRandom(seed)
  const b = new SparseRowsBuilder(d)
  const y = new Uint8Array(n)
  for (let i = 0; i < n; i++) {
    const cols: number[] = []
    const vals: number[] = []
    for (let j = 0; j < d; j++) {
      if (random() < 0.4) {
        cols.push(j)
        vals.push(Math.log1p(1 + Math.floor(random() * 5)))
      }
    }
    const both = cols.includes(0) && cols.includes(1)
    y[i] = separable ? (both ? 1 : 0) : random() < (both ? 0.6 : 0.05) ? 1 : 0
    b.add(cols, vals)
  }
  return { X: b.build(), y }
}

describe('sparse rows', () => {
  it('keeps the non-zeros of each row, selects rows, refuses columns outside', () => {
    const b = new SparseRowsBuilder(3)
    b.add([2, 0], [5, 0])
    b.add([], [])
    b.add([1, 0, 2], [1, 2, 3])
    const m = b.build()
    expect([denseRow(m, 0), denseRow(m, 1), denseRow(m, 2)]).toEqual([[0, 0, 5], [0, 0, 0], [2, 1, 3]])
    expect(m.values.length).toBe(4)
    const picked = selectRows(m, [2, 0])
    expect([denseRow(picked, 0), denseRow(picked, 1)]).toEqual([[2, 1, 3], [0, 0, 5]])
    expect(() => b.add([3], [1])).toThrow(RangeError)
    // Growth past the first allocation.
    const big = new SparseRowsBuilder(10)
    for (let i = 0; i < 5000; i++) big.add([i % 10, (i + 3) % 10], [1, 2])
    expect(big.build().values.length).toBe(10_000)
  })
})

describe('L-BFGS', () => {
  it('finds the minimum of the Rosenbrock function', async () => {
    const result = await minimise(async (x, g) => {
      const [a, b] = [x[0]!, x[1]!]
      g[0] = -2 * (1 - a) - 400 * a * (b - a * a)
      g[1] = 200 * (b - a * a)
      return (1 - a) ** 2 + 100 * (b - a * a) ** 2
    }, Float64Array.from([-1.2, 1]), { maxIterations: 1000, relativeTolerance: 0 })
    expect(result.converged).toBe(true)
    expect(result.x[0]).toBeCloseTo(1, 4)
    expect(result.x[1]).toBeCloseTo(1, 4)
  })
})

describe('logistic regression', () => {
  it('reaches the same optimum as plain gradient descent on the objective', async () => {
    const rows = [
      [0, 1, 3],
      [1, 0, 0],
      [2, 2, 1],
      [0, 0, 2],
      [3, 1, 0],
      [1, 3, 1],
      [0, 2, 2],
      [2, 0, 1],
    ]
    const y = [0, 1, 1, 0, 1, 0, 0, 1]
    for (const lambda of [0.01, 0.5]) {
      const ref = referenceFit(rows, y, lambda)
      const model = await fitLogistic(matrix(rows), Uint8Array.from(y), { lambda })
      expect(model.converged).toBe(true)
      Array.from(model.weights).forEach((w, j) => expect(w).toBeCloseTo(ref.w[j]!, 4))
      expect(model.intercept).toBeCloseTo(ref.b, 4)
    }
  })

  it('separates a separable set on held-out users, and ranks the planted features first', async () => {
    const { X, y } = synthetic(4000, 8, 7, true)
    const split = stratifiedSplit(y, 0.25, 1)
    const model = await fitLogisticTuned(selectRows(X, split.train), Uint8Array.from(split.train, (i) => y[i]!), { seed: 2 })
    const testY = Uint8Array.from(split.test, (i) => y[i]!)
    const scores = await predict(model, selectRows(X, split.test))
    const e = evaluate(scores, testY, 0.16)
    expect(e.auc).toBeGreaterThan(0.97)
    expect(e.accuracy).toBeGreaterThan(0.93)
    expect(e.accuracy).toBeGreaterThan(e.baselineAccuracy + 0.05)
    const order = Array.from(model.weights, (w, j) => [w, j] as const).sort((a, b) => b[0] - a[0]).map(([, j]) => j)
    expect(order.slice(0, 2).sort()).toEqual([0, 1])
  })

  it('learns the noisy planted rule: AUC well above chance, noise features near zero', async () => {
    const { X, y } = synthetic(20_000, 12, 11, false)
    const split = stratifiedSplit(y, 0.2, 3)
    const model = await fitLogisticTuned(selectRows(X, split.train), Uint8Array.from(split.train, (i) => y[i]!), { seed: 4 })
    const scores = await predict(model, selectRows(X, split.test))
    const e = evaluate(scores, Uint8Array.from(split.test, (i) => y[i]!), 0.1)
    expect(e.auc).toBeGreaterThan(0.75)
    expect(e.balancedAccuracy).toBeGreaterThan(0.65)
    for (let j = 2; j < 12; j++) expect(Math.abs(model.weights[j]!)).toBeLessThan(Math.min(model.weights[0]!, model.weights[1]!) / 4)
  })

  it("explains a user's score: the terms and the intercept add up to the margin", async () => {
    const { X, y } = synthetic(500, 5, 5, false)
    const model = await fitLogistic(X, y, { lambda: 0.01 })
    for (const r of [0, 17, 250]) {
      const terms = contributions(model, X, r)
      expect(model.intercept + terms.reduce((a, b) => a + b, 0)).toBeCloseTo(marginOf(model, X, r), 9)
      expect((await predict(model, selectRows(X, [r])))[0]).toBeCloseTo(sigmoid(marginOf(model, X, r)), 12)
    }
  })

  it('keeps a constant feature at zero and learns the base rate without features', async () => {
    const model = await fitLogistic(matrix([[1, 0], [1, 0], [1, 0], [1, 0]]), Uint8Array.from([1, 0, 0, 0]), { lambda: 0.01 })
    expect(Array.from(model.weights)).toEqual([0, 0])
    expect(sigmoid(model.intercept)).toBeCloseTo(0.25, 6)
  })
})

describe('evaluation', () => {
  it('computes AUC with ties, accuracy, balanced accuracy and log loss', () => {
    expect(auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBeCloseTo(0.75, 12)
    expect(auc([0.5, 0.5, 0.5, 0.5], [0, 1, 0, 1])).toBe(0.5)
    expect(auc([0.9, 0.1], [1, 0])).toBe(1)
    expect(accuracy([0.9, 0.2, 0.6, 0.4], [1, 0, 0, 0])).toBe(0.75)
    expect(balancedAccuracy([0, 0, 0, 0], [1, 0, 0, 0], 0.25)).toBe(0.5)
    expect(logLoss([0.5, 0.5], [1, 0])).toBeCloseTo(Math.log(2), 12)
    expect(evaluate([0.1, 0.1, 0.1, 0.9], [0, 0, 0, 1], 0.25)).toMatchObject({ users: 4, positives: 1, accuracy: 1, baselineAccuracy: 0.75, auc: 1 })
  })

  it('splits each class in the same proportion, the same way for the same seed', () => {
    const labels = Array.from({ length: 1000 }, (_, i) => (i % 10 === 0 ? 1 : 0))
    const a = stratifiedSplit(labels, 0.2, 42)
    expect(a.test.filter((i) => labels[i]).length).toBe(20)
    expect(a.test.length).toBe(200)
    expect(new Set([...a.train, ...a.test]).size).toBe(1000)
    expect(stratifiedSplit(labels, 0.2, 42)).toEqual(a)
    expect(stratifiedSplit(labels, 0.2, 43)).not.toEqual(a)
    // Hundreds of thousands of users: no argument list too long for the stack.
    const many = stratifiedSplit(new Uint8Array(500_000), 0.2, 1)
    expect([many.train.length, many.test.length]).toEqual([400_000, 100_000])
  })
})

describe('ordering by score', () => {
  it('orders like a plain sort, ties by index, both ways, at any size', async () => {
    const { orderByScore } = await import('./order.ts')
    const random = seededRandom(5)
    for (const n of [0, 1, 7, 2048, 2049, 10_000, 100_003]) {
      const scores = Float64Array.from({ length: n }, () => Math.round(random() * 50) / 50)
      const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b)
      expect(Array.from(await orderByScore(scores))).toEqual(expected)
      const ascending = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]! || a - b)
      expect(Array.from(await orderByScore(scores, 'asc'))).toEqual(ascending)
    }
  })
})
