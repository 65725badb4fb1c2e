import type { NetworkKind } from './kinds.ts'
import { KNOWN_NETWORKS } from './known-networks.ts'

/**
 * What kind of network an autonomous system is, from what the free data
 * gives (its number, its organisation's name, the addresses it announces):
 * only companies, education and government name a visitor's company. An
 * internet provider, a mobile carrier, a cloud, a CDN or a VPN carries
 * anyone's traffic, and naming it ("Comcast", "Amazon") would be false.
 *
 * In this order, the first that applies:
 * 1. The known networks (known-networks.ts), by number: clouds named after
 *    companies, carriers with opaque names, and well-known companies.
 * 2. The name: words that providers use of themselves (hosting, cloud,
 *    telecom, broadband, wireless, "Networks"…), then education (university,
 *    college…) and government (ministry, department of…). Research and
 *    education networks (which carry many universities) are providers.
 * 3. The size: an organisation announcing more than 2^18 IPv4 addresses (a
 *    /14) that no rule above recognised is taken for a provider: of the
 *    networks that large that the name rules took for companies, most were
 *    carriers and hosts (Kyivstar, WIND TRE, Cogeco, TierPoint…). Companies
 *    that large are fewer and listed (Apple's and Ford's /8s, Ericsson…).
 *    Nor is one announcing more than 16 separate IPv4 ranges: a firm's
 *    addresses sit in a few blocks, a provider's are pieces gathered over the
 *    years. Of the 50 largest networks the rules above left as companies,
 *    28 of 35 providers had more, and 4 of 15 firms (read by eye;
 *    bench/README.md, issue 20).
 * 4. Otherwise a company.
 * The rules lean towards "provider" wherever they are unsure: a company left
 * unnamed costs less than a carrier named as a company. An operator's own
 * ranges (the ip-to-company import) override all of this.
 */
export { NAMED_KINDS, NETWORK_KINDS, type NetworkKind } from './kinds.ts'

export const PROVIDER_SIZE = 2 ** 18
/** More separate IPv4 ranges than this (not one block, but pieces gathered over the years) makes a provider. */
export const PROVIDER_RANGES = 16

/** Bumped whenever these rules or the known networks change, so that stored visits are matched again (identity/rematch.ts). */
export const CLASSIFICATION_VERSION = 2

const HOSTING = /\b(hosting|hoster|host(ed|s)?|cloud|servers?|server ?mania|data ?cent(er|re)s?|datacent(er|re)|vps|colo(cation)?|cdn|content delivery|vpn|proxy|dedicated|web ?services|digitalocean|linode|vultr|hetzner|ovh|leaseweb|contabo|scaleway|ionos|rackspace|akamai|fastly|cloudflare|incapsula|imperva|zscaler|netskope|proton|zenlayer|tierpoint|flexential|cologix|selectel|plusserver|packethub|m247|datacamp|choopa|hostinger|godaddy|namecheap|bluehost|hostgator|dreamhost|hostpapa|amazon|aws|azure|google|alibaba|tencent|huawei cloud|oracle cloud|ucloud|kamatera|upcloud|gcore|g-core|stackpath|edgecast|limelight|edgio|bunny|koddos|frantech|psychz|quadranet|colocrossing|sharktech|tzulo|hivelocity|phoenixnap|servercentral|equinix|digital realty|coresite|cyrusone|switch ltd|internap)\b/

/** Words that mark a provider inside a brand ("NordVPN", "WebHosting"): "Soundcloud" is lost, which is the cheap mistake. */
const HOSTING_INSIDE = /(vpn|hosting|proxy|cloud|colocation|datacenter|xtom)/

const MOBILE = /\b(mobile|mobil|mobilink|mobitel|movil|móvil|moviles|móviles|wireless|cellular|cellco|celular|gsm|lte|5g|4g|3g|t-mobile|jio|airtel|hutchison|telcel|tigo|ooredoo|etisalat|zain|safaricom|mtn)\b/

const ISP = /(\b(telecoms?|telekom|telecommunications?|telecomunica\w*|telecomunicações|telekomunikasi|telekomunikacij\w*|telecomm?|communications?|comunicaciones|comunicações|comunicacoes|at&t|kommunikation|cable|kabel|cablevision|broadband|internet|isp|fib(er|re)|fibra|dsl|adsl|net(works?)?|online|provider|telco|telephone|telefon\w*|telefonica|telefónica|telenor|telia|telstra|vodafone|orange|verizon|comcast|charter|spectrum|centurylink|lumen|frontier|windstream|rogers|bell canada|shaw|videotron|sky|virgin media|talktalk|proximus|swisscom|kpn|ziggo|tele2|bouygues|sfr|iliad|free sas|rostelecom|optus|singtel|uunet|zayo|kyivstar|wind tre|megafon|vodacom|odido|vivacom|starhub|lifecell|kcell|polkomtel|euskaltel|fastweb|tiscali|netcologne|ewe tel|bahnhof|cogeco|teksavvy|wideopenwest|eastlink|hkbn|viettel|telecel|aircel|sify|beeline|vimpelcom|chinanet|china telecom|china unicom|unicom|kddi|softbank|ntt|bharti|bsnl|pldt|globe|smart|claro|vivo|telmex|movistar|entel|wifi|wi-fi|satellite|starlink|wimax|radio|tv|television|televis\w*|multimedia|infocomm|backbone|transit|exchange|ix|gigabit|connect\w*|link|wave|access|datacom|infotech|teleport|powercomm|ip transit)\b)|(\w*net\b|net$)|\w*tele\w*|\w*internet\w*|\w*(cable|kabel)\w*|\w*fib(er|re)\w*|\btransmission\b|\bweb\b/

const RESEARCH_NETWORK = /\b(research (and|&) education|education (and|&) research|research network|education network|academic network|nren|internet2|geant|géant|janet|dfn|renater|surfnet|surf b\.?v|switch|garr|rediris|cernet|aarnet|canarie|sinet|kreonet)\b/

const EDUCATION = /\b(universit(y|ies|e|é|ä|at|ät|aet|a|à|eit|ario|aria|ität|eto)|college|colegio|school|schule|hochschule|fachhochschule|école|ecole|academy|akademie|academia|polytechni\w*|politecnico|institute of technology|technische|education|educational|campus|seminary|conservatory)\b/

const GOVERNMENT = /\b(government|gov|ministry|ministerio|ministère|ministere|ministero|ministerie|ministerium|bundes\w*|department of|dept of|state of|commonwealth of|county|city of|municipality|municipal|gemeente|stadt|ville de|council|parliament|senate|congress|police|army|navy|air force|defen[cs]e|armed forces|federal|national (agency|institute|bureau|office)|administration|nhs|agency|authority|court|judiciary)\b/

export interface Classified {
  kind: NetworkKind
  /** The name to show: the known name, or the published one made readable. */
  name: string
  /** Where the data or the known list gives it; '' otherwise. */
  domain: string
}

/** A network as the AS table gives it (asn-table.ts's AsnEntry). */
export interface NetworkFacts {
  asn: number
  /** As published. */
  name: string
  v4Size: number
  v4Ranges: number
}

export function classifyNetwork({ asn, name: publishedName, v4Size, v4Ranges }: NetworkFacts): Classified {
  const known = KNOWN_NETWORKS.get(asn)
  const name = known?.name ?? readableName(publishedName)
  if (known) return { kind: known.kind, name, domain: known.domain ?? '' }
  return { kind: kindByName(publishedName, v4Size, v4Ranges), name, domain: '' }
}

function kindByName(publishedName: string, v4Size: number, v4Ranges: number): NetworkKind {
  const text = publishedName.toLowerCase()
  if (!text.trim()) return 'isp'
  if (HOSTING.test(text) || HOSTING_INSIDE.test(text)) return 'hosting'
  if (MOBILE.test(text)) return 'mobile'
  if (RESEARCH_NETWORK.test(text)) return 'isp'
  if (EDUCATION.test(text)) return 'education'
  if (GOVERNMENT.test(text)) return 'government'
  if (ISP.test(text)) return 'isp'
  if (v4Size > PROVIDER_SIZE || v4Ranges > PROVIDER_RANGES) return 'isp'
  return 'company'
}

const KEEP_UPPER = new Set(['LLC', 'LLP', 'LP', 'PLC', 'AG', 'SA', 'SE', 'AB', 'AS', 'BV', 'NV', 'KG', 'OY', 'USA', 'UK', 'US', 'EU', 'IT', 'IBM', 'SAS', 'SRL', 'SPA', 'GMBH', 'II', 'III'])
const SPECIAL: Record<string, string> = { GMBH: 'GmbH', SPA: 'S.p.A.' }

/** "CISCO SYSTEMS, INC." → "Cisco Systems, Inc."; names already in mixed case are kept as published. */
export function readableName(name: string): string {
  const trimmed = name.trim().replace(/\s+/g, ' ')
  if (/[a-z]/.test(trimmed)) return trimmed
  return trimmed.replace(/[A-Z0-9&'.-]+/g, (word) => {
    const bare = word.replace(/[.,]/g, '')
    if (SPECIAL[bare]) return SPECIAL[bare]!
    if (KEEP_UPPER.has(bare) || /\d/.test(word)) return word
    return word.charAt(0) + word.slice(1).toLowerCase()
  })
}
