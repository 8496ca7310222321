/**
 * The event bus's topics, in one place for the modules that announce changes (management routes,
 * the relay's own writes) and those that listen (caches, the routing index). Each payload is an
 * id or key, or the bus's EVERYTHING; a topic's name is part of what nodes of different versions
 * exchange through Redis, so it never changes.
 */
export const BusTopic = {
  /** A channel was created, edited, enabled, disabled or deleted (payload: its id). */
  channelChanged: 'channel-changed',
  /** A channel was shown to work again (payload: its id): every node forgets its cool-down. */
  channelHealthy: 'channel-healthy',
  /** A token was changed or deleted (payload: its key). */
  tokenChanged: 'token-changed',
  /** A user's quota, group, role or status changed, or the user was deleted (payload: the id). */
  userChanged: 'user-changed',
  /** An option was written (payload: its key). */
  optionChanged: 'option-changed',
} as const
