import { Button } from './Button.tsx'
import { copyText } from './clipboard.ts'
import { useSnackbar } from './snackbar/state.ts'

const COPY_ICON = 'M9 9h10v12H9zM5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1'

/** A button that copies `text` and says so in a snackbar ('… copied to clipboard'), or says why it could not. */
export function CopyButton({ text, label, copiedMessage, className }: { text: string; label: string; copiedMessage: string; className?: string }) {
  const snackbar = useSnackbar()
  const copy = async () => {
    try {
      await copyText(text)
      snackbar.ok(copiedMessage)
    } catch (error) {
      snackbar.error(error instanceof Error ? error.message : String(error))
    }
  }
  return (
    <Button variant="secondary" onClick={() => void copy()} className={className}>
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden className="h-4 w-4">
        <path d={COPY_ICON} />
      </svg>
      {label}
    </Button>
  )
}
