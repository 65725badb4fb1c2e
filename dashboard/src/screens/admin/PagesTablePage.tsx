import { OrgGridPage } from './OrgGridPage.tsx'

export default function PagesTablePage() {
  return <OrgGridPage grid="pages-table" heading="Pages table" />
}
