import { Faker, base, de, en, en_AU, en_CA, en_GB, en_IN, en_US, fr, nl, type LocaleDefinition } from '@faker-js/faker'
import { Rng, type SeedPart } from './random.ts'

/**
 * Faker for names and company names, driven by our own PRNG so that reseeding
 * per entity is cheap (faker's Mersenne Twister costs ~80 µs a seed, which adds
 * up to seconds at 100,000 people). One randomizer is shared by every locale's
 * instance and reseeded before each use: generation is synchronous, so nothing
 * interleaves.
 */
export type FakerLocale = 'en_US' | 'en_GB' | 'de' | 'fr' | 'en_CA' | 'en_AU' | 'en_IN' | 'nl'

const definitions: Record<FakerLocale, LocaleDefinition> = { en_US, en_GB, de, fr, en_CA, en_AU, en_IN, nl }

const randomizer = {
  rng: new Rng('faker'),
  next(): number {
    return randomizer.rng.next()
  },
  seed(seed: number | number[]): void {
    randomizer.rng = new Rng(...(Array.isArray(seed) ? seed : [seed]))
  },
}

const instances = new Map<FakerLocale, Faker>()

/** A Faker for `locale`, freshly seeded with `key`: the same key always gives the same values. */
export function seededFaker(locale: FakerLocale, ...key: SeedPart[]): Faker {
  let faker = instances.get(locale)
  if (!faker) {
    faker = new Faker({ locale: [definitions[locale], en, base], randomizer })
    instances.set(locale, faker)
  }
  randomizer.rng = new Rng('faker', ...key)
  return faker
}
