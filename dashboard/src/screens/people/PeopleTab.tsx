import { PeopleTable } from './PeopleTable.tsx'

/** The People tab (people/, the index): the People table; routes.tsx mounts the audience builder below it. */
export default function PeopleTab() {
  return <PeopleTable />
}
