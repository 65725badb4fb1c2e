import { Route, Routes } from 'react-router'
import Gallery from './Gallery.tsx'
import ModelPage from './model/ModelPage.tsx'

/**
 * /organizations/{organization}/scoring (part 3 §2): the gallery, and each
 * model at {analysisId} with its tabs below it. The area is one chunk,
 * loaded when first opened (routes.tsx): its screens are small, and a
 * model's address opens without a second wait.
 */
export default function ScoringRoutes() {
  return (
    <Routes>
      <Route index element={<Gallery />} />
      <Route path=":analysisId/*" element={<ModelPage />} />
    </Routes>
  )
}
