import { useState } from 'react'
import { useParams } from 'react-router'
import { AUDIENCE_TEXT } from '@fl0/contracts/audiences'
import { Button } from '../../ui/Button.tsx'
import { CreateAudienceModal } from './CreateAudienceModal.tsx'
import { EMPTY_DRAFT, usableFilters, type DraftFilters } from './filters/draft.ts'
import { FiltersEditor } from './filters/FiltersEditor.tsx'
import { AudiencePreview } from './preview/AudiencePreview.tsx'

/**
 * The audience builder with no saved audience (part 3 §2, §4): people/, below
 * the People table. Filters, the preview of who they take in, and 'Create
 * audience...' to save them as an audience.
 */
export default function AudienceBuilder() {
  const { organization = '' } = useParams()
  const [draft, setDraft] = useState<DraftFilters>(EMPTY_DRAFT)
  const [creating, setCreating] = useState(false)
  // What is previewed and saved: the unfinished filters left out (part 3 §4).
  const filters = usableFilters(draft)
  return (
    <section aria-labelledby="audience-builder" className="mt-10 space-y-5">
      <div className="flex items-center justify-between gap-4">
        <h2 id="audience-builder" className="text-lg font-semibold tracking-tight">
          Audience builder
        </h2>
        <Button onClick={() => setCreating(true)}>{AUDIENCE_TEXT.create}</Button>
      </div>
      <FiltersEditor org={organization} value={draft} onChange={setDraft} />
      <AudiencePreview org={organization} filters={filters} />
      {creating && <CreateAudienceModal org={organization} filters={filters} onClose={() => setCreating(false)} />}
    </section>
  )
}
