/** The kinds of network an address can belong to (classify.ts decides which). */
export const NETWORK_KINDS = ['company', 'education', 'government', 'isp', 'mobile', 'hosting'] as const
export type NetworkKind = (typeof NETWORK_KINDS)[number]

/** Kinds whose name is a visitor's organisation. */
export const NAMED_KINDS: ReadonlySet<string> = new Set<NetworkKind>(['company', 'education', 'government'])
