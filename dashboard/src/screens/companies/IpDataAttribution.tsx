const link = 'text-slate-500 underline decoration-slate-300 underline-offset-2 hover:text-slate-700'

/**
 * The credit the free IP data's licence (CC BY 4.0) asks of every page that
 * shows what it says: a visitor's or a company's place by their address
 * (DB-IP's IP-to-City Lite) and the networks behind the addresses (RouteViews,
 * the NRO's delegations and DB-IP's IP-to-ASN Lite). README.md "IP data".
 */
export function IpDataAttribution() {
  return (
    <p className="text-xs text-slate-400" data-testid="ip-data-attribution">
      IP data:{' '}
      <a href="https://db-ip.com/" target="_blank" rel="noreferrer noopener" className={link}>
        IP Geolocation by DB-IP
      </a>
      ,{' '}
      <a href="https://www.routeviews.org/" target="_blank" rel="noreferrer noopener" className={link}>
        RouteViews
      </a>
      ,{' '}
      <a href="https://www.nro.net/" target="_blank" rel="noreferrer noopener" className={link}>
        NRO
      </a>
    </p>
  )
}
