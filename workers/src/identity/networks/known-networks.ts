/**
 * Networks fl0 knows by number, where the organisation's name alone would
 * mislead: clouds and CDNs named after companies ("Amazon.com, Inc.",
 * "Google LLC", "Microsoft Corporation"), carriers whose names say nothing
 * of what they are ("Chinanet", "Free SAS", "Orange S.A."), and well-known
 * companies whose networks are large enough for the size rule to take them
 * for providers (Apple's and Ford's /8s), with the domain that opens their
 * company page. Numbers as published by the RIRs; kept short on purpose: the
 * name rules (classify.ts) do the rest, and an operator's partner ranges
 * override anything here.
 */
import type { NetworkKind } from './kinds.ts'

export interface KnownNetwork {
  kind: NetworkKind
  /** The name to show, when the published one reads badly. */
  name?: string
  domain?: string
}

const each = (kind: NetworkKind, asns: readonly number[], extra: Omit<KnownNetwork, 'kind'> = {}): Array<[number, KnownNetwork]> => asns.map((asn) => [asn, { kind, ...extra }])

/** Clouds, CDNs, hosting, VPN and security proxies: never a visitor's company (an office behind Zscaler is not Zscaler). */
const HOSTING = [
  16509, 14618, 8987, 38895, 7224, // Amazon (AWS, EC2)
  8075, 8068, 8069, 12076, // Microsoft (Azure)
  15169, 396982, 19527, 36040, 43515, 139070, 36384, 394089, // Google (Cloud, services, crawlers)
  13335, 209242, // Cloudflare
  20940, 16625, 21342, 32787, 35994, 63949, 12222, // Akamai, Linode
  54113, // Fastly
  14061, // DigitalOcean
  16276, 35540, // OVH
  24940, 213230, // Hetzner
  20473, // Vultr (Choopa)
  31898, 54253, // Oracle Cloud
  37963, 45102, 134963, // Alibaba Cloud
  132203, 45090, 132591, // Tencent Cloud
  55990, 136907, // Huawei Cloud
  9009, // M247
  60781, 28753, 59253, 7203, 30633, // Leaseweb
  51167, // Contabo
  212238, 60068, // Datacamp (CDN77)
  12876, // Scaleway (Online SAS)
  8560, // IONOS
  26496, 398101, // GoDaddy
  46606, // Unified Layer
  36352, // ColoCrossing
  8100, // QuadraNet
  62240, // Clouvider
  49981, // WorldStream
  22612, // Namecheap
  47583, // Hostinger
  19994, 27357, 33070, // Rackspace
  53667, // FranTech (BuyVM)
  136787, 141039, 147049, 207137, 272096, // PacketHub (NordVPN)
  9312, // xTom
  53444, 22616, 53813, 62044, 62907, // Zscaler
  53850, 62597, 55286, // GorillaServers, NS1, B2 Net
  2906, 40027, // Netflix Open Connect
  32934, 54115, 63293, // Meta (its crawlers and data centres)
  13238, // Yandex
  212317, 396356, // Hetzner US, Latitude.sh
  46562, // Performive
  3223, // Voxility
  174, 3356, 3257, 1299, 2914, 6453, 6762, 6939, 6461, 5511, 3491, // transit carriers: their addresses are others' traffic
]

/** Carriers whose traffic is mostly phones. */
const MOBILE = [
  21928, 6167, 22394, 20057, // T-Mobile US, Verizon Wireless, AT&T Mobility
  9808, 56040, 56041, 56042, 56044, 56046, 56047, 56048, 24400, 24444, 24445, // China Mobile
  55836, 45609, 24560, 38266, 45271, 55644, // Jio, Airtel, Vodafone Idea
  12430, 25135, 206067, 16086, 12844, 29247, // Vodafone ES and UK, Three UK, DNA, Bouygues, Cosmote
  5378, 12353, 51207, 21502, // Vodafone UK and PT, Free Mobile, SFR
  22085, 26599, 28573, 26615, 27699, 7303, // Claro, Vivo, TIM, Telecom Argentina
  17676, 2516, 9605, 131445, 132199, // SoftBank, KDDI, NTT Docomo, AWN, Globe
]

/** Internet providers that no name rule would catch. */
const ISP = [
  7922, 7018, 701, 20115, 22773, 209, 5650, 7029, 10796, 11427, 12271, 20001, 33363, 11351, 7843, 6128, 30036, // US cable and DSL
  3320, 3215, 2856, 5089, 3352, 3269, 12322, 6830, 6805, 8881, 1136, 15557, 5432, 8452, 8151, // Europe, Mexico
  4134, 4837, 4812, 4808, 17621, 9394, 4538, // China (incl. CERNET, many universities' shared network)
  4766, 9318, 3786, 17858, 3462, 1221, 7545, 4804, 9829, 17488, 24309, // Korea, Taiwan, Australia, India
  12389, 8359, 3216, 25513, 42610, // Russia
  16591, 14593, 22652, 11172, 4713, 10139, 3209, // Google Fiber, Starlink, Videotron, Alestra, NTT OCN, Smart, Vodafone DE
  2527, // Sony Network Communications (So-net)
]

/** Well-known organisations with their domains; some hold networks large enough that the size rule would take them for providers. */
const COMPANIES: Array<[number[], string, string]> = [
  [[714, 6185], 'Apple', 'apple.com'],
  [[521], 'Ford Motor Company', 'ford.com'],
  [[31399], 'Mercedes-Benz Group', 'mercedes-benz.com'],
  [[6253], 'Prudential Financial', 'prudential.com'],
  [[7054], 'Merck & Co.', 'merck.com'],
  [[11003], 'Procter & Gamble', 'pg.com'],
  [[1766], 'ExxonMobil', 'exxonmobil.com'],
  [[7792], '3M', '3m.com'],
  [[10794, 19886, 10998, 33730], 'Bank of America', 'bankofamerica.com'],
  [[109], 'Cisco', 'cisco.com'],
  [[4983], 'Intel', 'intel.com'],
  [[7743, 3486, 32066, 11496], 'JPMorgan Chase', 'jpmorganchase.com'],
  [[6195, 30149, 33598], 'Goldman Sachs', 'gs.com'],
  [[196, 27572, 2030, 30533], 'Boeing', 'boeing.com'],
  [[11971, 7068], 'Pfizer', 'pfizer.com'],
  [[6445, 22216], 'Siemens', 'siemens.com'],
  [[14340, 394808, 396417, 22606], 'Salesforce', 'salesforce.com'],
  [[10361], 'Bloomberg', 'bloomberg.com'],
  [[15224, 1313], 'Adobe', 'adobe.com'],
  [[26662, 395959, 22390], 'Xerox', 'xerox.com'],
  [[3614, 12257, 30614], 'Dell Technologies', 'dell.com'],
  [[3573, 21433], 'Accenture', 'accenture.com'],
  [[6075], 'Lockheed Martin', 'lockheedmartin.com'],
  [[38816, 11355, 25049], 'Shell', 'shell.com'],
  [[613, 2535], 'BP', 'bp.com'],
  [[2047], 'Roche', 'roche.com'],
  [[8373, 15769, 2824], 'Deutsche Bank', 'db.com'],
  [[35039, 14114, 12510], 'SAP', 'sap.com'],
  [[6303, 12701], 'Barclays', 'barclays.com'],
  [[206618, 3810], 'Volkswagen', 'volkswagen.com'],
  [[206720], 'Airbus', 'airbus.com'],
  [[14381], 'Caterpillar', 'caterpillar.com'],
  [[204764, 209394], 'IBM', 'ibm.com'],
  [[7862], 'Chevron', 'chevron.com'],
  [[2559], 'Visa', 'visa.com'],
  [[26380], 'Mastercard', 'mastercard.com'],
  [[45008, 6307], 'American Express', 'americanexpress.com'],
  [[11414, 20347], 'NVIDIA', 'nvidia.com'],
  [[394161], 'Tesla', 'tesla.com'],
  [[13541], 'Siemens Digital Industries Software', 'sw.siemens.com'],
  [[6619], 'Samsung SDS', 'samsungsds.com'],
  [[14413, 13443], 'LinkedIn', 'linkedin.com'],
  [[19679], 'Dropbox', 'dropbox.com'],
  [[30337], 'Deloitte', 'deloitte.com'],
  [[13778], 'Johnson & Johnson', 'jnj.com'],
  [[21558], 'SC Johnson', 'scjohnson.com'],
  [[29356, 204284], 'Nestlé', 'nestle.com'],
  [[21188], 'Unilever', 'unilever.com'],
  [[20705], 'HSBC', 'hsbc.com'],
  [[8137, 29736, 23344], 'The Walt Disney Company', 'disney.com'],
  [[25031], 'Novartis', 'novartis.com'],
  [[158], 'Ericsson', 'ericsson.com'],
  [[1906], 'Northrop Grumman', 'northropgrumman.com'],
  [[243], 'L3Harris', 'l3harris.com'],
  [[14962], 'NCR', 'ncr.com'],
  [[10455], 'Nokia', 'nokia.com'],
  [[19773], 'Motorola Solutions', 'motorolasolutions.com'],
  [[8883], 'UBS', 'ubs.com'],
  [[12291], 'Deutsche Post DHL', 'dpdhl.com'],
  [[16839], 'ServiceNow', 'servicenow.com'],
  [[395266], 'Keysight Technologies', 'keysight.com'],
  [[3, 63], 'Massachusetts Institute of Technology', 'mit.edu'],
  [[32], 'Stanford University', 'stanford.edu'],
  [[1742, 10578], 'Harvard University', 'harvard.edu'],
  [[7377], 'University of California San Diego', 'ucsd.edu'],
]

const GOVERNMENT: Array<[number[], string, string]> = [
  [[749, 721], 'United States Department of Defense', 'defense.gov'],
  [[203665], 'UK Ministry of Defence', 'gov.uk'],
]

const EDUCATION_ASNS = new Set([3, 63, 32, 1742, 10578, 7377])

export const KNOWN_NETWORKS: ReadonlyMap<number, KnownNetwork> = new Map<number, KnownNetwork>([
  // Later entries win: a company listed below a provider list is a company.
  ...each('isp', ISP),
  ...each('mobile', MOBILE),
  ...each('hosting', HOSTING),
  ...COMPANIES.flatMap(([asns, name, domain]) => each(asns.some((a) => EDUCATION_ASNS.has(a)) ? 'education' : 'company', asns, { name, domain })),
  ...GOVERNMENT.flatMap(([asns, name, domain]) => each('government', asns, { name, domain })),
])
