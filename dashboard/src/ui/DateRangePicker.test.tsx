import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import type { DateRange } from '../constants.ts'
import { DateRangePicker } from './DateRangePicker.tsx'

function Picker() {
  const [range, setRange] = useState<DateRange>('last7Days')
  return (
    <>
      <DateRangePicker value={range} onChange={setRange} />
      <output>{range}</output>
    </>
  )
}

describe('date range picker', () => {
  it('offers 7D, 30D, 3M, 6M and Year and reports the chosen range', () => {
    render(<Picker />)
    expect(screen.getAllByRole('radio').map((r) => r.textContent)).toEqual(['7D', '30D', '3M', '6M', 'Year'])
    expect(screen.getByRole('radio', { name: '7D' }).getAttribute('aria-checked')).toBe('true')
    fireEvent.click(screen.getByRole('radio', { name: '6M' }))
    expect(screen.getByRole('status').textContent).toBe('last6Months')
    expect(screen.getByRole('radio', { name: '6M' }).getAttribute('aria-checked')).toBe('true')
  })
})
