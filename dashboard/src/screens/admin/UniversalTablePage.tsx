import { useState } from 'react'
import { Button } from '../../ui/Button.tsx'
import { AdminGrid } from './grid/AdminGrid.tsx'
import { AdminScreen, FilterField } from './controls.tsx'
import { ImportUniversalDialog } from './ImportUniversalDialog.tsx'
import { ADMIN_TEXT } from './text.ts'

/** universal-table: an up_id filter (free text, the placeholder shows its shape) and the streamed import (part 1 §2). */
export default function UniversalTablePage() {
  const [upId, setUpId] = useState('')
  const [importing, setImporting] = useState(false)
  return (
    <AdminScreen
      heading="Universal table"
      actions={<Button onClick={() => setImporting(true)}>{ADMIN_TEXT.importUniversalTable}</Button>}
      filters={<FilterField label="up_id" value={upId} onChange={setUpId} placeholder={ADMIN_TEXT.upIdPlaceholder} className="w-96 font-mono" />}
    >
      <AdminGrid grid="universal-table" title="Universal table" filters={{ upId: upId.trim() || undefined }} />
      {importing && <ImportUniversalDialog onClose={() => setImporting(false)} />}
    </AdminScreen>
  )
}
