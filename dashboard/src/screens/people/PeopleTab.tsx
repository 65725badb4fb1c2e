import AudienceBuilder from '../audiences/AudienceBuilder.tsx'
import { PeopleTable } from './PeopleTable.tsx'

/**
 * The People tab (people/, the index): the audience builder's filters first,
 * then who they take in. With no filter set that is everyone, the People
 * table; once one is set, the builder's preview stands in its place.
 */
export default function PeopleTab() {
  return <AudienceBuilder everyone={<PeopleTable />} />
}
