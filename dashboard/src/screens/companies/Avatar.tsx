import { initials } from './format.ts'

const TONES = ['bg-indigo-100 text-indigo-700', 'bg-emerald-100 text-emerald-700', 'bg-amber-100 text-amber-800', 'bg-sky-100 text-sky-700', 'bg-rose-100 text-rose-700', 'bg-violet-100 text-violet-700']

/** A person's initials in a circle, its colour fixed by their id. */
export function Avatar({ id, name, anonymous = false }: { id: string; name: string; anonymous?: boolean }) {
  let hash = 0
  for (const ch of id) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0
  const tone = anonymous ? 'bg-slate-100 text-slate-500' : TONES[hash % TONES.length]
  return (
    <span aria-hidden className={`inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${tone}`}>
      {anonymous ? '?' : initials(name)}
    </span>
  )
}
