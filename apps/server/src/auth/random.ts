import { randomBytes, randomInt, randomUUID } from 'node:crypto'

const ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'

export function randomString(length: number, alphabet = ALPHANUMERIC): string {
  let result = ''
  for (let index = 0; index < length; index++) result += alphabet[randomInt(alphabet.length)]
  return result
}

/** 32 hex characters, as one-api's access tokens and redemption codes (a UUID without dashes). */
export function randomHex32(): string {
  return randomUUID().replaceAll('-', '')
}

/**
 * A token key as one-api generates it: 16 random alphanumerics followed by a UUID's 32 hex
 * characters with the letters at even positions upper-cased; 48 characters, never a '-'.
 */
export function generateTokenKey(): string {
  const hex = randomHex32()
  let mixed = ''
  for (let index = 0; index < hex.length; index++) {
    mixed += index % 2 === 0 ? hex[index].toUpperCase() : hex[index]
  }
  return randomString(16) + mixed
}

/** A readable random password for the first root user when INITIAL_ROOT_PASSWORD is not set. */
export function generatePassword(): string {
  return randomBytes(12).toString('base64url').slice(0, 16)
}
