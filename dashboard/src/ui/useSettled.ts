import { useEffect, useState } from 'react'

/** A value once it has stopped changing for `ms`: typing does not send a request per key. Values compare by their JSON. */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  const key = JSON.stringify(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, ms])
  return settled
}
