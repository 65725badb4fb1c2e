import { usePeoplePaths } from '../people/paths.ts'

/** The audience screens' addresses, in the people mount they are opened from (people/ or people-ai/). */
export function useAudiencePaths() {
  const paths = usePeoplePaths()
  return {
    ...paths,
    /** The builder with no saved audience: the People tab (people/). */
    builder: paths.base,
    list: paths.audiences,
    audience: (id: string) => `${paths.audiences}/${encodeURIComponent(id)}`,
  }
}

/** Refetch name of the audience list (after a save or a delete). */
export const AUDIENCES = 'audiences'
