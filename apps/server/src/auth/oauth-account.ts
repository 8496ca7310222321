import { Role, UserStatus } from '@one-api/contracts'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { createUser } from '../admin/account/create-user.ts'
import { toSessionUser } from '../admin/account/user-view.ts'
import type { AppContext } from '../app-context.ts'
import {
  findUserByEmail,
  findUserById,
  findUserByIdentity,
  findUserByUsername,
  type UserRow,
  updateUserFields,
} from '../db/repositories/users-repository.ts'
import { conflict, forbidden } from '../http/errors.ts'
import { ok } from '../http/route.ts'
import { sessionUser } from './authenticate.ts'
import { randomString } from './random.ts'
import { signIn } from './sign-in.ts'

export type IdentityColumn = 'github_id' | 'lark_id' | 'wechat_id' | 'oidc_id'

/** Who the provider says signed in. */
export interface ExternalIdentity {
  column: IdentityColumn
  /** "GitHub", "Lark", ... for messages. */
  provider: string
  subject: string
  /** Tried first as the new username; the provider prefix with random letters otherwise. */
  preferredUsername?: string
  usernamePrefix: string
  displayName?: string
  email?: string
}

const MAX_USERNAME = 12
const MAX_DISPLAY_NAME = 20

/**
 * Finishes a provider callback as one-api: binds the identity to the signed-in user, else signs in
 * the user holding it, else registers a new user when registration is open. Replies `message:
 * 'bind'` after a binding (the console shows "binding succeeded") and the session user otherwise.
 */
export async function completeExternalSignIn(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  identity: ExternalIdentity,
) {
  const holder = await findUserByIdentity(context.db, identity.column, identity.subject)
  const current = await sessionUser(context, request)
  if (current && current.status === UserStatus.enabled) {
    if (holder && holder.id !== current.id) {
      throw conflict(`This ${identity.provider} account is already bound to another user`)
    }
    await updateUserFields(context.db, current.id, { [identity.column]: identity.subject })
    return ok(undefined, 'bind')
  }
  let user = holder
  if (!user) {
    if (!context.options.boolean('RegisterEnabled')) {
      throw forbidden('New user registration has been disabled by the administrator')
    }
    user = await registerExternalUser(context, identity)
  }
  if (user.status !== UserStatus.enabled) throw forbidden('This account has been disabled')
  await signIn(context, request, reply, user)
  return ok(toSessionUser(user))
}

async function registerExternalUser(context: AppContext, identity: ExternalIdentity): Promise<UserRow> {
  const username = await freeUsername(context, identity)
  const email = identity.email?.toLowerCase().slice(0, 50)
  const emailFree = email && !(await findUserByEmail(context.db, email))
  const id = await createUser(context, {
    username,
    // Nobody knows it: the account signs in through the provider until a password is reset.
    password: randomString(20),
    displayName: (identity.displayName || `${identity.provider} User`).slice(0, MAX_DISPLAY_NAME),
    email: emailFree ? email : undefined,
    role: Role.Common,
  })
  await updateUserFields(context.db, id, { [identity.column]: identity.subject })
  const user = await findUserById(context.db, id)
  if (!user) throw new Error(`user ${id} vanished after registration`)
  return user
}

/** The provider's login name when it fits and is free, else a variant of it, else prefix_xxxxx. */
async function freeUsername(context: AppContext, identity: ExternalIdentity): Promise<string> {
  const base = (identity.preferredUsername ?? '').replace(/[^A-Za-z0-9_.-]/g, '').slice(0, MAX_USERNAME)
  const candidates: string[] = []
  if (base) {
    candidates.push(base)
    for (let attempt = 0; attempt < 5; attempt++) {
      const suffix = `_${randomString(3)}`
      candidates.push(base.slice(0, MAX_USERNAME - suffix.length) + suffix)
    }
  }
  for (let attempt = 0; attempt < 10; attempt++) {
    const prefix = identity.usernamePrefix.slice(0, 6)
    candidates.push(`${prefix}_${randomString(MAX_USERNAME - prefix.length - 1)}`)
  }
  for (const candidate of candidates) {
    if (!(await findUserByUsername(context.db, candidate))) return candidate
  }
  throw conflict('Could not find a free username: please try again')
}
