import { useState } from 'react'

/**
 * A grid's page, back to 1 whenever its filters change (part 1 §4). The reset
 * happens in the same render as the change, so no request for a stale page
 * goes out.
 */
export function usePage(filters: unknown): [number, (page: number) => void] {
  const key = JSON.stringify(filters ?? null)
  const [state, setState] = useState({ key, page: 1 })
  if (state.key !== key) {
    const reset = { key, page: 1 }
    setState(reset)
    return [1, (page) => setState({ key, page })]
  }
  return [state.page, (page) => setState({ key, page })]
}
