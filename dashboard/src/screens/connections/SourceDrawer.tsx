import { useState } from 'react'
import { SOURCES_TEXT } from '@fl0/contracts/sources'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { FetchView } from '../../ui/FetchView.tsx'
import { Drawer } from '../../ui/modal/Modal.tsx'
import { PerformanceTab } from './PerformanceTab.tsx'
import { PropertiesTab, type SourceDraft } from './PropertiesTab.tsx'
import { TYPE_LABEL } from './SourceGraph.tsx'

type Tab = 'performance' | 'properties'

function Tabs({ tab, onTab, isNew }: { tab: Tab; onTab: (t: Tab) => void; isNew: boolean }) {
  const item = (value: Tab, label: string, disabled = false) => (
    <button
      type="button"
      role="tab"
      id={`source-tab-${value}`}
      aria-selected={tab === value}
      aria-controls={`source-panel-${value}`}
      disabled={disabled}
      onClick={() => onTab(value)}
      className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium disabled:cursor-not-allowed disabled:text-slate-300 ${
        tab === value ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:text-slate-900'
      }`}
    >
      {label}
    </button>
  )
  return (
    <div role="tablist" aria-label="Source" className="mb-6 flex border-b border-slate-200">
      {item('performance', SOURCES_TEXT.performanceTab, isNew)}
      {item('properties', SOURCES_TEXT.propertiesTab)}
    </div>
  )
}

/**
 * The tabs of a source (part 1 §2): Performance, disabled for a new source, and
 * Properties; a new source opens on Properties, an existing one on Performance.
 */
function SourceTabs({ org, source, isNew, onClose }: { org: string; source: SourceDraft; isNew: boolean; onClose: () => void }) {
  const [tab, setTab] = useState<Tab>(isNew ? 'properties' : 'performance')
  return (
    <>
      <Tabs tab={tab} onTab={setTab} isNew={isNew} />
      <div role="tabpanel" id={`source-panel-${tab}`} aria-labelledby={`source-tab-${tab}`}>
        {tab === 'performance' ? <PerformanceTab org={org} sourceId={source.id} /> : <PropertiesTab org={org} source={source} isNew={isNew} onDone={onClose} />}
      </div>
    </>
  )
}

/** segment-modal or snippet-modal for a new source: the defaults (id, key, name, snippet) come from the server. */
function NewSourceDrawer({ org, type, onClose }: { org: string; type: 'segment' | 'snippet'; onClose: () => void }) {
  const api = useApi()
  const fetched = useFetch<SourceDraft>(
    async (signal) =>
      type === 'segment'
        ? { ...(await api.sources.segmentDefaults(signal)), type }
        : { ...(await api.sources.snippetDefaults(signal)), type },
    [type],
  )
  return (
    <Drawer title={`New ${TYPE_LABEL[type]} source`} onClose={onClose}>
      <FetchView fetched={fetched}>{(draft) => <SourceTabs org={org} source={draft} isNew onClose={onClose} />}</FetchView>
    </Drawer>
  )
}

/** segment-modal or snippet-modal with a source id: that source, as stored. */
function ExistingSourceDrawer({ org, id, type, onClose }: { org: string; id: string; type: 'segment' | 'snippet'; onClose: () => void }) {
  const api = useApi()
  const fetched = useFetch((signal) => api.sources.get(org, id, signal), [org, id])
  const title = fetched.status === 'loaded' ? fetched.data.name : TYPE_LABEL[type]
  return (
    <Drawer title={title} onClose={onClose}>
      <FetchView fetched={fetched}>{(source) => <SourceTabs org={org} source={source} isNew={false} onClose={onClose} />}</FetchView>
    </Drawer>
  )
}

export function SourceDrawer({ org, type, id, onClose }: { org: string; type: 'segment' | 'snippet'; id?: string; onClose: () => void }) {
  return id ? <ExistingSourceDrawer key={id} org={org} id={id} type={type} onClose={onClose} /> : <NewSourceDrawer key={type} org={org} type={type} onClose={onClose} />
}
