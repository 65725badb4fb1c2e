import type { ReactNode } from 'react'
import type { Fetched } from '../api/useFetch.ts'
import { ErrorPanel } from './ErrorPanel.tsx'
import { Spinner } from './Spinner.tsx'

/** The three fetching states: a spinner, the error panel, or the content. */
export function FetchView<T>({ fetched, children }: { fetched: Fetched<T>; children: (data: T) => ReactNode }) {
  if (fetched.status === 'pending') return <Spinner />
  if (fetched.status === 'error') return <ErrorPanel message={fetched.error} />
  return <>{children(fetched.data)}</>
}
