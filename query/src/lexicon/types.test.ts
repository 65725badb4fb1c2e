import { describe, expect, it } from 'vitest'
import { lexiconType, resolveType, typeOfObservations } from './types.ts'

describe('lexicon types', () => {
  it("names ClickHouse's inferred types as the lexicon does", () => {
    const cases: Record<string, string> = {
      String: 'string',
      Int64: 'number',
      UInt64: 'number',
      Float64: 'number',
      'Decimal(18, 2)': 'number',
      Bool: 'boolean',
      Date: 'date',
      DateTime: 'date',
      'DateTime64(9)': 'date',
      "DateTime64(3, 'UTC')": 'date',
      'Nullable(String)': 'string',
      'Array(Nullable(String))': 'stringArray',
      'Array(Nullable(Int64))': 'numberArray',
      'Array(Nullable(Float64))': 'numberArray',
      'Array(Nullable(Bool))': 'booleanArray',
      'Array(Nullable(Date))': 'stringArray',
      'Array(Dynamic)': 'stringArray',
      'Array(JSON(max_dynamic_types=16, max_dynamic_paths=256))': 'objectArray',
      'Array(Array(Nullable(Int64)))': 'objectArray',
      IPv4: 'string',
      UUID: 'string',
    }
    expect(Object.fromEntries(Object.keys(cases).map((t) => [t, lexiconType(t)]))).toEqual(cases)
  })

  it('widens a path seen with several types, whatever their order', () => {
    expect(resolveType(['number'])).toBe('number')
    expect(typeOfObservations(['Int64', 'Float64'])).toBe('number')
    expect(resolveType(['number', 'string'])).toBe('string')
    expect(resolveType(['string', 'number'])).toBe('string')
    expect(resolveType(['date', 'string'])).toBe('string')
    expect(resolveType(['boolean', 'number'])).toBe('string')
    expect(resolveType(['numberArray', 'stringArray'])).toBe('stringArray')
    expect(resolveType(['objectArray', 'numberArray'])).toBe('stringArray')
    expect(resolveType(['number', 'numberArray'])).toBe('string')
    expect(resolveType([])).toBe('string')
  })
})
