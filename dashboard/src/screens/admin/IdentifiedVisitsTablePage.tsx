import { OrgGridPage } from './OrgGridPage.tsx'

export default function IdentifiedVisitsTablePage() {
  return <OrgGridPage grid="identified-visits-table" heading="Identified visits table" />
}
