export interface RedemptionListParams {
  /** 0-based page; ignored while searching. */
  page: number
  /** An ID or the start of a name; '' lists page by page. */
  keyword: string
}

/** Query keys of the redemption screens; every change invalidates `redemptionKeys.all`. */
export const redemptionKeys = {
  all: ['redemptions'] as const,
  list: (params: RedemptionListParams) => ['redemptions', 'list', params] as const,
  detail: (id: number) => ['redemptions', 'detail', id] as const,
}
