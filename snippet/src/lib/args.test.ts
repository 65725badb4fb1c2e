import { describe, expect, it } from 'vitest'
import { idString, pageNames, resolve } from './args.ts'

const cb = () => {}

describe('resolve: track(event, properties?, options?, callback?)', () => {
  it('reads event, properties, options and callback', () => {
    expect(resolve(['Signed Up', { plan: 'pro' }, { context: { ip: '1.2.3.4' } }, cb], 1)).toEqual([['Signed Up'], { plan: 'pro' }, { context: { ip: '1.2.3.4' } }, cb])
  })
  it('takes a callback in the properties place', () => {
    expect(resolve(['Signed Up', cb], 1)).toEqual([['Signed Up'], {}, {}, cb])
  })
  it('treats null and arrays as no properties or options', () => {
    expect(resolve(['x', null, [1]], 1)).toEqual([['x'], {}, {}, undefined])
  })
})

describe('resolve: page(category?, name?, properties?, options?, callback?)', () => {
  const page = (a: any[]) => {
    const [names, properties, options, callback] = resolve(a, 2)
    return [...pageNames(names), properties, options, callback]
  }
  it('reads nothing', () => {
    expect(page([])).toEqual([undefined, undefined, {}, {}, undefined])
  })
  it('reads a lone string as the name', () => {
    expect(page(['Home'])).toEqual([undefined, 'Home', {}, {}, undefined])
  })
  it('reads two strings as category and name', () => {
    expect(page(['Docs', 'Install', { v: 1 }, { o: 1 }, cb])).toEqual(['Docs', 'Install', { v: 1 }, { o: 1 }, cb])
  })
  it('reads properties and options without names', () => {
    expect(page([{ v: 1 }, { o: 1 }])).toEqual([undefined, undefined, { v: 1 }, { o: 1 }, undefined])
  })
  it('reads a name then properties', () => {
    expect(page(['Home', { v: 1 }, cb])).toEqual([undefined, 'Home', { v: 1 }, {}, cb])
  })
  it('keeps places for null and undefined', () => {
    expect(page([null, 'Home', { v: 1 }])).toEqual([null, 'Home', { v: 1 }, {}, undefined])
    expect(page([undefined, undefined, { v: 1 }])).toEqual([undefined, undefined, { v: 1 }, {}, undefined])
    expect(page(['Home', null, { v: 1 }, { o: 1 }])).toEqual([undefined, 'Home', { v: 1 }, { o: 1 }, undefined])
  })
})

describe('resolve: identify(userId?, traits?, options?, callback?) and group', () => {
  it('reads id, traits, options and callback', () => {
    expect(resolve(['u1', { email: 'a@b.c' }, { o: 1 }, cb], 1)).toEqual([['u1'], { email: 'a@b.c' }, { o: 1 }, cb])
  })
  it('reads traits first when there is no id', () => {
    expect(resolve([{ plan: 'pro' }, { o: 1 }], 1)).toEqual([[], { plan: 'pro' }, { o: 1 }, undefined])
  })
  it('keeps the id place for null', () => {
    expect(resolve([null, { plan: 'pro' }, cb], 1)).toEqual([[null], { plan: 'pro' }, {}, cb])
  })
})

describe('resolve: alias(userId, previousId?, options?, callback?)', () => {
  it('reads user id, previous id and options', () => {
    expect(resolve(['new', 'old', { o: 1 }], 2)).toEqual([['new', 'old'], { o: 1 }, {}, undefined])
  })
  it('reads options after a lone user id', () => {
    expect(resolve([7, { o: 1 }, cb], 2)).toEqual([[7], { o: 1 }, {}, cb])
  })
})

describe('idString', () => {
  it('turns numbers into their decimal string and leaves null absent', () => {
    expect([idString(42), idString('u1'), idString(null), idString(undefined)]).toEqual(['42', 'u1', undefined, undefined])
  })
})
