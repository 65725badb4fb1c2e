/**
 * The Correlation tab's 'In model' boxes (part 3 §4, Scoring selections).
 * Every event is in the model unless listed in excludedEvents; a property is
 * in only when listed in includedProperties. Two rules bind them:
 * - toggling an event off excludes it and removes its included properties;
 * - toggling a property on includes it and un-excludes its event.
 * The result is only held on screen: 'Rebuild model' is what sends it.
 */
export interface Selections {
  excludedEvents: string[]
  includedProperties: Array<{ event: string; property: string }>
}

export const eventInModel = (s: Selections, event: string) => !s.excludedEvents.includes(event)

export const propertyInModel = (s: Selections, event: string, property: string) =>
  eventInModel(s, event) && s.includedProperties.some((p) => p.event === event && p.property === property)

export function toggleEvent(s: Selections, event: string, on: boolean): Selections {
  if (on) return { ...s, excludedEvents: s.excludedEvents.filter((e) => e !== event) }
  return {
    excludedEvents: s.excludedEvents.includes(event) ? s.excludedEvents : [...s.excludedEvents, event],
    includedProperties: s.includedProperties.filter((p) => p.event !== event),
  }
}

export function toggleProperty(s: Selections, event: string, property: string, on: boolean): Selections {
  const others = s.includedProperties.filter((p) => !(p.event === event && p.property === property))
  if (!on) return { ...s, includedProperties: others }
  return {
    excludedEvents: s.excludedEvents.filter((e) => e !== event),
    includedProperties: [...others, { event, property }],
  }
}

/** Whether two selections hold the same choices, whatever their order (the rebuild button says when there is something new). */
export function sameSelections(a: Selections, b: Selections): boolean {
  const key = (s: Selections) => JSON.stringify([[...s.excludedEvents].sort(), s.includedProperties.map((p) => JSON.stringify([p.event, p.property])).sort()])
  return key(a) === key(b)
}
