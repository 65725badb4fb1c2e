/**
 * A sparse matrix by rows (CSR): the users' feature counts, most of which are
 * zero (a user does a handful of the organisation's events). Rows are added
 * one at a time as they stream from the events store; the arrays grow by
 * doubling, so memory is the non-zeros, never users × features.
 */
export interface SparseRows {
  rows: number
  cols: number
  /** Row r's entries are indptr[r] … indptr[r + 1] - 1. */
  indptr: Uint32Array
  indices: Uint32Array
  values: Float32Array
}

export class SparseRowsBuilder {
  #indptr: Uint32Array = new Uint32Array(1024)
  #indices: Uint32Array = new Uint32Array(4096)
  #values: Float32Array = new Float32Array(4096)
  #rows = 0
  #nnz = 0

  constructor(readonly cols: number) {}

  get rows(): number {
    return this.#rows
  }

  /** Adds a row; entries with a zero value are left out. Columns need not be sorted. */
  add(indices: ArrayLike<number>, values: ArrayLike<number>): number {
    if (this.#rows + 2 > this.#indptr.length) this.#indptr = grow(this.#indptr, this.#indptr.length * 2) as Uint32Array
    for (let k = 0; k < indices.length; k++) {
      const v = values[k]!
      if (v === 0) continue
      const c = indices[k]!
      if (c < 0 || c >= this.cols || !Number.isInteger(c)) throw new RangeError(`column ${c} outside 0…${this.cols - 1}`)
      if (this.#nnz === this.#indices.length) {
        this.#indices = grow(this.#indices, this.#indices.length * 2) as Uint32Array
        this.#values = grow(this.#values, this.#values.length * 2) as Float32Array
      }
      this.#indices[this.#nnz] = c
      this.#values[this.#nnz] = v
      this.#nnz++
    }
    this.#rows++
    this.#indptr[this.#rows] = this.#nnz
    return this.#rows - 1
  }

  build(): SparseRows {
    return {
      rows: this.#rows,
      cols: this.cols,
      indptr: this.#indptr.slice(0, this.#rows + 1),
      indices: this.#indices.slice(0, this.#nnz),
      values: this.#values.slice(0, this.#nnz),
    }
  }
}

function grow<T extends Uint32Array | Float32Array>(a: T, size: number): T {
  const next = new (a.constructor as { new (n: number): T })(size)
  next.set(a)
  return next
}

/** The rows `which` of `m`, in that order. */
export function selectRows(m: SparseRows, which: ArrayLike<number>): SparseRows {
  const b = new SparseRowsBuilder(m.cols)
  for (let k = 0; k < which.length; k++) {
    const r = which[k]!
    const from = m.indptr[r]!
    const to = m.indptr[r + 1]!
    b.add(m.indices.subarray(from, to), m.values.subarray(from, to))
  }
  return b.build()
}

/** Row r as a dense array (tests, small inputs). */
export function denseRow(m: SparseRows, r: number): number[] {
  const out = new Array<number>(m.cols).fill(0)
  for (let k = m.indptr[r]!; k < m.indptr[r + 1]!; k++) out[m.indices[k]!] = m.values[k]!
  return out
}
