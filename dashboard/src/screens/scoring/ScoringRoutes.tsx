import { lazy, Suspense, type ReactNode } from 'react'
import { Route, Routes } from 'react-router'
import { Spinner } from '../../ui/Spinner.tsx'

const Gallery = lazy(() => import('./Gallery.tsx'))
const ModelPage = lazy(() => import('./model/ModelPage.tsx'))

const load = (element: ReactNode) => <Suspense fallback={<Spinner />}>{element}</Suspense>

/** /organizations/{organization}/scoring (part 3 §2): the gallery, and each model at {analysisId} with its tabs below it. */
export default function ScoringRoutes() {
  return (
    <Routes>
      <Route index element={load(<Gallery />)} />
      <Route path=":analysisId/*" element={load(<ModelPage />)} />
    </Routes>
  )
}
