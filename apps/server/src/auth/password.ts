import bcrypt from 'bcryptjs'

// bcrypt with the default cost, as one-api (Go's bcrypt.DefaultCost = 10): old hashes keep working.
const COST = 10

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST)
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (!hash) return false
  try {
    return await bcrypt.compare(password, hash)
  } catch {
    return false
  }
}
