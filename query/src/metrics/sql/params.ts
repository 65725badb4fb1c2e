/**
 * Bound parameters for one query; the metric, audience and scoring queries
 * all build theirs with it. Every value that comes from a definition or an
 * audience's filters (event names, property paths, trait names, filter
 * values, days, the zone, dates, now) goes through bind(), which hands back
 * a typed placeholder ({p3:String}); ClickHouse substitutes it as a literal
 * of that type, so nothing a user typed is ever part of the SQL text. JSON
 * paths are bound too: getSubcolumn takes a constant, and a bound parameter
 * is one.
 */
export class Params {
  readonly values: Record<string, unknown> = {}
  #next = 0

  bind(type: ParamType, value: unknown): string {
    const name = `p${this.#next++}`
    this.values[name] = value
    return `{${name}:${type}}`
  }
}

export type ParamType = 'String' | 'Float64' | 'UInt32' | 'UInt64' | 'Date' | "DateTime64(3, 'UTC')" | 'Array(String)'
