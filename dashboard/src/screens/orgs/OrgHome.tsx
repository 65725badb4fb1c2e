import { Navigate } from 'react-router'
import { readToggle } from '../../toggles.ts'

/** The organisation's home: /reports with the ai toggle, else /people (part 1 §2). */
export function OrgHome() {
  return <Navigate to={readToggle('ai') ? 'reports' : 'people'} replace />
}
