/**
 * A seeded random source (mulberry32): the same seed gives the same split, so
 * a model rebuilt on the same data holds out the same users.
 */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Splits row indices into train and test with `fraction` of each class in
 * test (rounded), shuffled by `seed`: a rare outcome keeps its share on both
 * sides. Indices come back ascending within each side.
 */
export function stratifiedSplit(labels: ArrayLike<number>, fraction: number, seed: number): { train: number[]; test: number[] } {
  const random = seededRandom(seed)
  const train: number[] = []
  const test: number[] = []
  for (const cls of [0, 1]) {
    const members: number[] = []
    for (let i = 0; i < labels.length; i++) if ((labels[i] ? 1 : 0) === cls) members.push(i)
    // Fisher–Yates.
    for (let i = members.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[members[i], members[j]] = [members[j]!, members[i]!]
    }
    const held = Math.round(members.length * fraction)
    // A loop, not push(...): spreading hundreds of thousands of arguments overflows the stack.
    for (let i = 0; i < members.length; i++) (i < held ? test : train).push(members[i]!)
  }
  return { train: train.sort((a, b) => a - b), test: test.sort((a, b) => a - b) }
}
