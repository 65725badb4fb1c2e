import { openPglite } from './pglite.ts'
import { scoringContract } from './scoring.contract.ts'

scoringContract('pglite', () => openPglite())
