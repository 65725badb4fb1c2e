/**
 * @fl0/snippet for the server: the routes that serve fl0.js, and the loader
 * code a site pastes (the spec's snippet source: "snippet (the code)").
 */
export { createSnippetRoutes, acceptsGzip, LIBRARY_FILE, type SnippetRoutesOptions } from './serve.ts'
export { snippetCode, loaderCode, type LoadOptions } from './snippet-code.ts'
