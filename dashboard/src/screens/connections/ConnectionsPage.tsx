import { useParams } from 'react-router'
import { SOURCES_TEXT } from '@fl0/contracts/sources'
import { useApi } from '../../api/context.tsx'
import { useFetch } from '../../api/useFetch.ts'
import { useCurrentUser } from '../../session/user.ts'
import { Button } from '../../ui/Button.tsx'
import { FetchView } from '../../ui/FetchView.tsx'
import { Heading } from '../../ui/Heading.tsx'
import { AddSourceModal } from './AddSourceModal.tsx'
import { CONNECTIONS } from './PropertiesTab.tsx'
import { SourceDrawer } from './SourceDrawer.tsx'
import { SourceGraph } from './SourceGraph.tsx'
import { useSourceModal } from './sourceModal.ts'

/**
 * Connections (part 1 §2): the organisation's sources joined to the product,
 * 'You have 0 connections' without any, the add-source modal, and the
 * segment-modal and snippet-modal drawers, all addressed by the URL
 * (sourceModal.ts).
 */
export default function ConnectionsPage() {
  const { organization = '' } = useParams()
  const api = useApi()
  const user = useCurrentUser()
  const orgName = user.orgs.find((o) => o.url_code === organization)?.name ?? organization
  const { modal, id, open, close } = useSourceModal()
  const fetched = useFetch((signal) => api.sources.list(organization, signal), [organization], { name: CONNECTIONS })

  return (
    <div className="p-8">
      <Heading actions={<Button onClick={() => open('add-source')}>{SOURCES_TEXT.addSourceAction}</Button>}>{SOURCES_TEXT.connectionsHeading}</Heading>
      <FetchView fetched={fetched}>
        {(sources) =>
          sources.length === 0 ? (
            <div className="rounded-lg border border-dashed border-slate-300 p-12 text-center">
              <p className="text-slate-600">{SOURCES_TEXT.empty}</p>
              <Button className="mt-4" onClick={() => open('add-source')}>
                {SOURCES_TEXT.emptyAction}
              </Button>
            </div>
          ) : (
            <div className="mx-auto max-w-5xl py-4">
              <SourceGraph sources={sources} productName={orgName} />
            </div>
          )
        }
      </FetchView>
      {modal === 'add-source' && <AddSourceModal onChoose={(m) => open(m)} onClose={close} />}
      {(modal === 'segment-modal' || modal === 'snippet-modal') && (
        <SourceDrawer org={organization} type={modal === 'segment-modal' ? 'segment' : 'snippet'} id={id} onClose={close} />
      )}
    </div>
  )
}
