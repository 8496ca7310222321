/** Query keys of the settings screens; saving an option invalidates `optionKeys.all`. */
export const optionKeys = {
  all: ['options'] as const,
}
