/** Fixtures for tests of the query layer and of what builds on it (the API's routes, scoring). */
export * from './metrics/fixture.ts'
