import { metadataContract } from './metadata.contract.ts'
import { openPglite } from './pglite.ts'

metadataContract('pglite', () => openPglite())
