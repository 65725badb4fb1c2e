/**
 * How well scores predict labels, on users the model did not learn from.
 *
 * - accuracy: the share of users whose score is on the right side of 0.5
 *   (scores are probabilities: 0.5 is where "will reach" becomes likelier
 *   than "will not").
 * - baselineAccuracy: the accuracy of always answering the majority class,
 *   what a model must beat to have learnt anything from the features.
 * - balancedAccuracy: the mean of the hit rates on each class at the
 *   threshold `threshold` (the training base rate by default): a rare outcome
 *   cannot be met by saying "no" to everyone (that scores 0.5).
 * - auc: the probability that a random user who reached the metric scores
 *   above a random one who did not (ties count half): 0.5 is chance.
 * - logLoss: the mean negative log-likelihood of the labels.
 */
export interface Evaluation {
  users: number
  positives: number
  accuracy: number
  baselineAccuracy: number
  balancedAccuracy: number
  auc: number
  logLoss: number
}

export function accuracy(scores: ArrayLike<number>, labels: ArrayLike<number>, threshold = 0.5): number {
  if (labels.length === 0) return 0
  let right = 0
  for (let i = 0; i < labels.length; i++) if ((scores[i]! >= threshold ? 1 : 0) === (labels[i] ? 1 : 0)) right++
  return right / labels.length
}

export function balancedAccuracy(scores: ArrayLike<number>, labels: ArrayLike<number>, threshold: number): number {
  let tp = 0
  let p = 0
  let tn = 0
  let n = 0
  for (let i = 0; i < labels.length; i++) {
    const predicted = scores[i]! >= threshold
    if (labels[i]) {
      p++
      if (predicted) tp++
    } else {
      n++
      if (!predicted) tn++
    }
  }
  if (p === 0 || n === 0) return p === 0 ? (n === 0 ? 0 : tn / n) : tp / p
  return (tp / p + tn / n) / 2
}

/**
 * Mann–Whitney U over the ranks of the scores, ties given their mean rank.
 * `ascending` is the rows ordered by score, lowest first, when the caller has
 * it (learner/order.ts sorts without holding the event loop).
 */
export function auc(scores: ArrayLike<number>, labels: ArrayLike<number>, ascending?: ArrayLike<number>): number {
  const order = ascending ?? Array.from({ length: labels.length }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!)
  let positives = 0
  let rankSum = 0
  for (let i = 0; i < order.length; ) {
    let j = i
    while (j + 1 < order.length && scores[order[j + 1]!] === scores[order[i]!]) j++
    const meanRank = (i + j) / 2 + 1
    for (let k = i; k <= j; k++) {
      if (labels[order[k]!]) {
        positives++
        rankSum += meanRank
      }
    }
    i = j + 1
  }
  const negatives = labels.length - positives
  if (positives === 0 || negatives === 0) return 0.5
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives)
}

export function logLoss(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  if (labels.length === 0) return 0
  let sum = 0
  for (let i = 0; i < labels.length; i++) {
    const p = Math.min(1 - 1e-12, Math.max(1e-12, scores[i]!))
    sum -= labels[i] ? Math.log(p) : Math.log(1 - p)
  }
  return sum / labels.length
}

export function evaluate(scores: ArrayLike<number>, labels: ArrayLike<number>, baseRate: number, ascending?: ArrayLike<number>): Evaluation {
  let positives = 0
  for (let i = 0; i < labels.length; i++) positives += labels[i] ? 1 : 0
  const users = labels.length
  return {
    users,
    positives,
    accuracy: accuracy(scores, labels),
    baselineAccuracy: users === 0 ? 0 : Math.max(positives, users - positives) / users,
    balancedAccuracy: balancedAccuracy(scores, labels, baseRate),
    auc: auc(scores, labels, ascending),
    logLoss: logLoss(scores, labels),
  }
}
