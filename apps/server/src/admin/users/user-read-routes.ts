import { ITEMS_PER_PAGE, MAX_RECENT_ITEMS, Role } from '@one-api/contracts'
import { USER_LIST_ORDERS, type UserListOrder } from '@one-api/contracts/user-admin'
import type { AppContext } from '../../app-context.ts'
import {
  listEnabledModelChannelsOfGroups,
  listEnabledModelsOfGroups,
} from '../../db/repositories/abilities-repository.ts'
import { listUsers, listUsersSharingIp, searchUsers } from '../../db/repositories/users-repository.ts'
import { idOf, pageOf, queryText } from '../../http/request-params.ts'
import { currentUser, ok, type RouteDefinition } from '../../http/route.ts'
import { toUserView } from '../account/user-view.ts'
import { modelPriceList } from './model-prices.ts'
import { assertOutranks, findLiveUser, groupNames } from './user-access.ts'

function isListOrder(value: string): value is UserListOrder {
  return (USER_LIST_ORDERS as readonly string[]).includes(value)
}

/** The administrator's views of users, and the group and model lists the console offers. */
export function userReadRoutes(context: AppContext): RouteDefinition[] {
  const { db, dialect } = context
  return [
    {
      method: 'GET',
      url: '/api/user/',
      access: Role.Admin,
      handler: async (request) => {
        const page = pageOf(request)
        const order = queryText(request, 'order')
        const rows = await listUsers(
          db,
          isListOrder(order) ? order : 'id',
          page * ITEMS_PER_PAGE,
          ITEMS_PER_PAGE,
        )
        return ok(rows.map(toUserView))
      },
    },
    {
      method: 'GET',
      url: '/api/user/search',
      access: Role.Admin,
      handler: async (request) => {
        const search = { keyword: queryText(request, 'keyword'), ip: queryText(request, 'ip') }
        const rows = await searchUsers(db, dialect, search, MAX_RECENT_ITEMS)
        return ok(rows.map(toUserView))
      },
    },
    {
      method: 'GET',
      url: '/api/user/sameip',
      access: Role.Admin,
      handler: async (request) => {
        const page = pageOf(request)
        const rows = await listUsersSharingIp(db, page * ITEMS_PER_PAGE, ITEMS_PER_PAGE)
        return ok(rows.map(toUserView))
      },
    },
    {
      method: 'GET',
      url: '/api/user/:id',
      access: Role.Admin,
      handler: async (request) => {
        const target = await findLiveUser(context, { id: idOf(request) })
        assertOutranks(currentUser(request), target)
        return ok(toUserView(target))
      },
    },
    {
      method: 'GET',
      url: '/api/user/available_models',
      access: Role.Common,
      handler: async (request) => {
        // A user belongs to one group in one-api; a comma list is accepted for forward compatibility.
        const user = currentUser(request)
        const groups = (user.group || 'default')
          .split(',')
          .map((group) => group.trim())
          .filter(Boolean)
        // One-api's list of names; `?prices=true` gives the models page their prices (and channels).
        if (queryText(request, 'prices') !== 'true') return ok(await listEnabledModelsOfGroups(db, groups))
        const rows = await listEnabledModelChannelsOfGroups(db, groups)
        return ok(modelPriceList(rows, groups[0] ?? 'default', context.options, user.role >= Role.Admin))
      },
    },
    {
      method: 'GET',
      url: '/api/group/',
      access: Role.Admin,
      handler: async () => ok(groupNames(context)),
    },
  ]
}
