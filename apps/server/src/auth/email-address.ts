import { z } from 'zod'
import type { OptionsStore } from '../config/options-store.ts'
import { badRequest, forbidden } from '../http/errors.ts'

const emailSchema = z
  .email({ error: 'Please enter a valid email address' })
  .max(50, 'The email address is too long')

/** A valid address (at most 50 characters, as the users table stores), trimmed and lower-cased. */
export function parseEmail(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw badRequest('Please enter an email address')
  const result = emailSchema.safeParse(value.trim().toLowerCase())
  if (!result.success) throw badRequest(result.error.issues[0].message)
  return result.data
}

/**
 * With EmailDomainRestrictionEnabled, only addresses of the domains listed in EmailDomainWhitelist
 * (comma-separated) may be verified or bound.
 */
export function assertEmailDomainAllowed(options: OptionsStore, email: string): void {
  if (!options.boolean('EmailDomainRestrictionEnabled')) return
  const domain = email.slice(email.lastIndexOf('@') + 1)
  const allowed = options
    .get('EmailDomainWhitelist')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
  if (!allowed.includes(domain)) {
    throw forbidden(`Email addresses of this domain are not accepted; use one of: ${allowed.join(', ')}`)
  }
}
