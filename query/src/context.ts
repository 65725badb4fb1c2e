/**
 * A field of an event's context (events.context, JSON text since
 * clickhouse/0012_context_text.sql) as text: a string as it is, a number or
 * boolean as written, '' when absent or null (as the JSON column read them). `path` names the keys from the top
 * (`contextText('location', 'city')`); they are fixed names of fl0's, never input.
 * The places (location's city, region and country, and the time zone) have
 * columns of their own, context_city and so on (clickhouse/0013), holding this
 * text: read those.
 */
export function contextText(...path: string[]): string {
  for (const key of path) if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`not a context key: ${key}`)
  const args = ['context', ...path.map((k) => `'${k}'`)].join(', ')
  return `multiIf(JSONType(${args}) = 'String', JSONExtractString(${args}), JSONType(${args}) = 'Null', '', JSONExtractRaw(${args}))`
}
