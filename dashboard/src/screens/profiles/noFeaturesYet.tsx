import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { FEATURE_TEXT } from '@fl0/contracts/features'
import { PEOPLE_TEXT } from '@fl0/contracts/people'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'

/**
 * Why a profile's feature lists are empty when the organisation has defined
 * no feature (asked only then), with the way to create one: the features page
 * with its 'Track new feature' modal open. With features defined, an empty
 * list is the spec's ten rows of '-': this person or company used none.
 * Used by the user and the company profile alike, so that neither shows two
 * tables of dashes for a feature nobody has made.
 */
export function useNoFeaturesYet(organization: string, unused: boolean): ReactNode | undefined {
  const api = useApi()
  const features = useFetch((signal) => (unused ? api.features.list(organization, signal) : Promise.resolve(null)), [organization, unused])
  if (features.status !== 'loaded' || !features.data || features.data.features.length > 0) return undefined
  return (
    <p>
      {PEOPLE_TEXT.noFeaturesYet}{' '}
      <Link to={`/organizations/${encodeURIComponent(organization)}/features?modal=${FEATURE_TEXT.modal}`} className="font-medium text-indigo-700 hover:underline">
        {PEOPLE_TEXT.createFeature}
      </Link>
    </p>
  )
}
