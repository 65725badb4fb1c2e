/**
 * The one module that imports jotai (Excalidraw's habit): the rest of the
 * dashboard imports its state tools from here, so a change of library or a
 * store-wide concern (a test's fresh store, devtools) is made in one place.
 * Atoms live beside the component that owns them.
 */
export { atom, createStore, Provider, useAtom, useAtomValue, useSetAtom, useStore } from 'jotai'
export type { Atom, PrimitiveAtom, WritableAtom } from 'jotai'
