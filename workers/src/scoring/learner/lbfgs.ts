/**
 * Limited-memory BFGS (Nocedal & Wright, Numerical Optimization, 2nd ed.,
 * algorithm 7.4 for the two-loop recursion, 3.1 for the backtracking line
 * search under the Armijo condition), minimising a smooth convex function
 * given its value and gradient. The objective is evaluated asynchronously, so
 * a long evaluation can yield to the event loop part way through.
 *
 * Stops when the gradient's largest component falls under `gradientTolerance`
 * (converged), when an iteration improves the value by less than
 * `relativeTolerance` of it (converged: the remaining gain is noise), or
 * after `maxIterations` (not converged: the caller says so).
 */
export type Objective = (x: Float64Array, gradient: Float64Array) => Promise<number>

export interface LbfgsOptions {
  maxIterations: number
  gradientTolerance: number
  relativeTolerance: number
  /** Correction pairs kept. */
  memory: number
}

export interface LbfgsResult {
  x: Float64Array
  value: number
  iterations: number
  converged: boolean
  reason: 'gradient' | 'relative' | 'iterations' | 'line-search'
}

const DEFAULTS: LbfgsOptions = { maxIterations: 500, gradientTolerance: 1e-6, relativeTolerance: 1e-10, memory: 10 }

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}
const maxAbs = (a: Float64Array) => {
  let m = 0
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]!))
  return m
}

export async function minimise(f: Objective, x0: Float64Array, options: Partial<LbfgsOptions> = {}): Promise<LbfgsResult> {
  const o = { ...DEFAULTS, ...options }
  const n = x0.length
  let x = Float64Array.from(x0)
  let g = new Float64Array(n)
  let value = await f(x, g)
  const s: Float64Array[] = []
  const y: Float64Array[] = []
  const rho: number[] = []
  const direction = new Float64Array(n)
  const alpha = new Array<number>(o.memory)

  for (let iteration = 0; iteration < o.maxIterations; iteration++) {
    if (maxAbs(g) < o.gradientTolerance) return { x, value, iterations: iteration, converged: true, reason: 'gradient' }

    // Two-loop recursion: direction = -H·g.
    for (let i = 0; i < n; i++) direction[i] = -g[i]!
    for (let k = s.length - 1; k >= 0; k--) {
      alpha[k] = rho[k]! * dot(s[k]!, direction)
      for (let i = 0; i < n; i++) direction[i]! -= alpha[k]! * y[k]![i]!
    }
    if (s.length > 0) {
      const last = s.length - 1
      const gamma = dot(s[last]!, y[last]!) / dot(y[last]!, y[last]!)
      for (let i = 0; i < n; i++) direction[i]! *= gamma
    } else {
      // First step: a unit step along the steepest descent, scaled to the gradient's size.
      const scale = 1 / Math.max(1, Math.sqrt(dot(g, g)))
      for (let i = 0; i < n; i++) direction[i]! *= scale
    }
    for (let k = 0; k < s.length; k++) {
      const beta = rho[k]! * dot(y[k]!, direction)
      for (let i = 0; i < n; i++) direction[i]! += s[k]![i]! * (alpha[k]! - beta)
    }

    let slope = dot(g, direction)
    if (!(slope < 0)) {
      // Not a descent direction (curvature information gone stale): restart from steepest descent.
      s.length = y.length = rho.length = 0
      for (let i = 0; i < n; i++) direction[i] = -g[i]!
      slope = dot(g, direction)
    }

    // Backtracking line search (Armijo).
    let step = 1
    const nextX = new Float64Array(n)
    const nextG = new Float64Array(n)
    let nextValue = Infinity
    let accepted = false
    for (let tries = 0; tries < 40; tries++) {
      for (let i = 0; i < n; i++) nextX[i] = x[i]! + step * direction[i]!
      nextValue = await f(nextX, nextG)
      if (Number.isFinite(nextValue) && nextValue <= value + 1e-4 * step * slope) {
        accepted = true
        break
      }
      step *= 0.5
    }
    if (!accepted) return { x, value, iterations: iteration, converged: maxAbs(g) < Math.sqrt(o.gradientTolerance), reason: 'line-search' }

    const sk = new Float64Array(n)
    const yk = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      sk[i] = nextX[i]! - x[i]!
      yk[i] = nextG[i]! - g[i]!
    }
    const sy = dot(sk, yk)
    // Keep the pair only with positive curvature, so H stays positive definite.
    if (sy > 1e-12) {
      s.push(sk)
      y.push(yk)
      rho.push(1 / sy)
      if (s.length > o.memory) {
        s.shift()
        y.shift()
        rho.shift()
      }
    }
    const improvement = value - nextValue
    x = nextX
    g = nextG
    value = nextValue
    if (improvement >= 0 && improvement <= o.relativeTolerance * Math.max(1, Math.abs(value))) {
      return { x, value, iterations: iteration + 1, converged: true, reason: 'relative' }
    }
  }
  return { x, value, iterations: o.maxIterations, converged: maxAbs(g) < o.gradientTolerance, reason: 'iterations' }
}
