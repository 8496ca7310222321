import { ROOT_INITIAL_QUOTA, Role } from '@one-api/contracts'
import type { FastifyBaseLogger } from 'fastify'
import { createUser } from './admin/account/create-user.ts'
import type { AppContext } from './app-context.ts'
import { generatePassword, randomHex32 } from './auth/random.ts'
import { insertToken, unlimitedToken } from './db/repositories/tokens-repository.ts'
import { countUsers } from './db/repositories/users-repository.ts'

/**
 * First start: create `root` (role 100). Its password is INITIAL_ROOT_PASSWORD or a random one
 * printed once. As in one-api, INITIAL_ROOT_ACCESS_TOKEN becomes root's access token (else a random
 * one) and INITIAL_ROOT_TOKEN, when set, an unlimited API token of root's with that key.
 */
export async function ensureRootUser(context: AppContext, logger: FastifyBaseLogger): Promise<void> {
  const { db, config } = context
  if ((await countUsers(db)) > 0) return
  const password = config.INITIAL_ROOT_PASSWORD ?? generatePassword()
  let id: number
  try {
    id = await createUser(context, { username: 'root', password, displayName: 'Root User', role: Role.Root })
  } catch (error) {
    // Another node starting at the same moment created it first.
    if ((await countUsers(db)) > 0) return
    throw error
  }
  await db
    .updateTable('users')
    .set({ quota: ROOT_INITIAL_QUOTA, access_token: config.INITIAL_ROOT_ACCESS_TOKEN ?? randomHex32() })
    .where('id', '=', id)
    .execute()
  if (config.INITIAL_ROOT_TOKEN) {
    await insertToken(
      db,
      unlimitedToken(id, 'Initial Root Token', config.INITIAL_ROOT_TOKEN.replace(/^sk-/, '')),
    )
  }
  if (config.INITIAL_ROOT_PASSWORD) {
    logger.info('created the root user with the password from INITIAL_ROOT_PASSWORD')
  } else {
    // Printed once, on the first start only: the operator must change it after signing in.
    logger.warn(
      `created the root user: username "root", password "${password}" (shown only once; change it after signing in)`,
    )
  }
}
