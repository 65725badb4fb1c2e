import { Heading } from '../ui/Heading.tsx'

/** A screen whose issue has not landed: its heading, nothing invented. */
export function Placeholder({ heading }: { heading: string }) {
  return (
    <div className="p-8">
      <Heading>{heading}</Heading>
    </div>
  )
}
