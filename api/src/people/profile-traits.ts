import { DEFAULT_VISIBLE_TRAITS, PROFILE_TRAIT_ERRORS, PROFILE_TRAIT_SETTINGS_MAX, type ProfileTraitSetting, type ProfileTraitType } from '@fl0/contracts'
import { listProfileTraits, saveProfileTrait, type Sql } from '@fl0/stores'
import { fieldError } from '../http/errors.ts'

/**
 * Which traits the profiles' Traits cards show (part 3 §3 "Profile trait
 * visibility"), per organisation and profile type. The answer lists every
 * trait with a say: the defaults (contracts' DEFAULT_VISIBLE_TRAITS) as
 * visible unless someone hid them, then every other choice made, by name. A
 * card shows exactly the names listed with hidden false; any trait not listed
 * stays hidden until someone adds it.
 */
export async function profileTraitSettings(sql: Sql, orgId: string, type: ProfileTraitType): Promise<ProfileTraitSetting[]> {
  return overDefaults(type, await listProfileTraits(sql, orgId, type))
}

export async function chooseProfileTrait(sql: Sql, orgId: string, type: ProfileTraitType, choice: ProfileTraitSetting): Promise<ProfileTraitSetting[]> {
  const saved = await saveProfileTrait(sql, orgId, type, choice, PROFILE_TRAIT_SETTINGS_MAX)
  if (saved === 'too-many') throw fieldError('name', PROFILE_TRAIT_ERRORS.tooMany, 409)
  return overDefaults(type, saved)
}

function overDefaults(type: ProfileTraitType, stored: ProfileTraitSetting[]): ProfileTraitSetting[] {
  const chosen = new Map(stored.map((s) => [s.name, s.hidden]))
  const defaults = DEFAULT_VISIBLE_TRAITS[type]
  return [
    ...defaults.map((name) => ({ name, hidden: chosen.get(name) ?? false })),
    ...stored.filter((s) => !defaults.includes(s.name)).map((s) => ({ name: s.name, hidden: s.hidden })),
  ]
}
