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
  const held = new Uint8Array(labels.length)
  for (const cls of [0, 1]) {
    const members: number[] = []
    for (let i = 0; i < labels.length; i++) if ((labels[i] ? 1 : 0) === cls) members.push(i)
    // Fisher–Yates.
    for (let i = members.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[members[i], members[j]] = [members[j]!, members[i]!]
    }
    const count = Math.round(members.length * fraction)
    for (let i = 0; i < count; i++) held[members[i]!] = 1
  }
  // Ascending by walking the rows once: no sort (and no push(...) of a huge list, which overflows the stack).
  const train: number[] = []
  const test: number[] = []
  for (let i = 0; i < labels.length; i++) (held[i] ? test : train).push(i)
  return { train, test }
}
