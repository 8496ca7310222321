/** The EmailDomainWhitelist option is a comma list of domains. */
export function parseDomains(text: string): string[] {
  return text
    .split(',')
    .map((domain) => domain.trim())
    .filter(Boolean)
}

/** Adds a domain when it is not empty and not already listed (case-insensitively). */
export function addDomain(domains: readonly string[], entry: string): string[] {
  const domain = entry.trim().replace(/^@/, '').toLowerCase()
  if (domain === '' || domains.some((listed) => listed.toLowerCase() === domain)) return [...domains]
  return [...domains, domain]
}
