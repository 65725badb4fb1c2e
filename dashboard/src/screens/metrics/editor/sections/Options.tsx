import type { AudienceType, GraphLayout, GraphType, MeasureBy, OccurringPeriod, Operation } from '@fl0/contracts/metrics'
import { DateRangePicker } from '../../../../ui/DateRangePicker.tsx'
import { Segmented } from '../../../../ui/Segmented.tsx'
import { disabledReasons, type Draft } from '../draft.ts'
import { Section } from './Section.tsx'

export type SetField = <K extends keyof Draft>(field: K, value: Draft[K]) => void

interface Props {
  draft: Draft
  set: SetField
}

export function AudienceTypeSection({ draft, set }: Props) {
  return (
    <Section title="Audience type">
      <Segmented<AudienceType>
        label="Audience type"
        value={draft.audienceType}
        onChange={(v) => set('audienceType', v)}
        options={[
          { value: 'user', label: 'Users' },
          { value: 'company', label: 'Companies' },
        ]}
      />
    </Section>
  )
}

export function MeasureSection({ draft, set }: Props) {
  const why = disabledReasons(draft)
  return (
    <Section title="Measure">
      <Segmented<MeasureBy>
        label="Measure"
        value={draft.measureBy}
        onChange={(v) => set('measureBy', v)}
        options={[
          { value: 'unique', label: draft.audienceType === 'company' ? 'Unique companies' : 'Unique users' },
          { value: 'total', label: 'Total', disabled: !!why.total, reason: why.total },
          { value: 'conversionRate', label: 'Conversion rate', disabled: !!why.conversionRate, reason: why.conversionRate },
          ...(draft.audienceType === 'user' || draft.measureBy === 'uniqueCompanies' ? [{ value: 'uniqueCompanies' as const, label: 'Unique companies' }] : []),
        ]}
      />
    </Section>
  )
}

export function OperationSection({ draft, set }: Props) {
  const why = disabledReasons(draft)
  return (
    <Section title="Operation" hint="Any of the events, all of them, or all of them in order (a funnel).">
      <Segmented<Operation>
        label="Operation"
        value={draft.operation}
        onChange={(v) => set('operation', v)}
        options={[
          { value: 'any', label: 'Any' },
          { value: 'all', label: 'All', disabled: !!why.all, reason: why.all },
          { value: 'ordered', label: 'Ordered', disabled: !!why.ordered, reason: why.ordered },
        ]}
      />
    </Section>
  )
}

export function OccurringSection({ draft, set }: Props) {
  const why = disabledReasons(draft)
  return (
    <Section title="Occurring" hint="The period that event occurrences are counted in.">
      <Segmented<OccurringPeriod>
        label="Occurring"
        value={draft.occurring}
        onChange={(v) => set('occurring', v)}
        options={[
          { value: 'daily', label: 'Daily' },
          { value: 'weekly', label: 'Weekly', disabled: !!why.period, reason: why.period },
          { value: 'monthly', label: 'Monthly', disabled: !!why.period, reason: why.period },
        ]}
      />
    </Section>
  )
}

export function DateRangeSection({ draft, set }: Props) {
  const why = disabledReasons(draft)
  return (
    <Section title="Date range" hint={why.dateRange}>
      <DateRangePicker value={draft.dateRange} onChange={(v) => set('dateRange', v)} disabled={!!why.dateRange} title={why.dateRange} />
    </Section>
  )
}

export function GraphSection({ draft, set }: Props) {
  const why = disabledReasons(draft)
  const sideReason = draft.graphType !== 'bar' || !draft.breakdown?.trait || draft.operation === 'ordered' ? 'Side by side is for bar graphs with a breakdown, not ordered' : undefined
  return (
    <>
      <Section title="Graph type">
        <Segmented<GraphType>
          label="Graph type"
          value={draft.graphType}
          onChange={(v) => set('graphType', v)}
          options={[
            { value: 'line', label: 'Line' },
            { value: 'bar', label: 'Bar' },
            { value: 'table', label: 'Table' },
            { value: 'metric', label: 'Metric' },
            { value: 'funnel', label: 'Funnel', disabled: !!why.funnel, reason: why.funnel },
          ]}
        />
      </Section>
      <Section title="Graph layout">
        <Segmented<GraphLayout>
          label="Graph layout"
          value={draft.graphLayout}
          onChange={(v) => set('graphLayout', v)}
          options={[
            { value: 'stacked', label: 'Stacked' },
            { value: 'side', label: 'Side by side', disabled: !!sideReason && draft.graphLayout !== 'side', reason: sideReason },
          ]}
        />
      </Section>
    </>
  )
}
