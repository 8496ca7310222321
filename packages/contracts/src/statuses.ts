/** Status values of every entity, with one-api's numbers. */
export const UserStatus = { enabled: 1, disabled: 2, deleted: 3 } as const
export const TokenStatus = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const
export const ChannelStatus = { unknown: 0, enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const
export const RedemptionStatus = { unused: 1, disabled: 2, used: 3 } as const
export const LogType = { unknown: 0, topUp: 1, consume: 2, manage: 3, system: 4, test: 5 } as const
export type LogTypeValue = (typeof LogType)[keyof typeof LogType]
