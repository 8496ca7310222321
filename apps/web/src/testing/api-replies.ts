/** A management API success answer in one-api's envelope, as the console's fetchers read it. */
export const apiReply = (data: unknown) => new Response(JSON.stringify({ success: true, message: '', data }))

/** The signed-in user's record (`GET /api/user/self`) the settings tests render: Carol, a common user. */
export const carolSelf = {
  id: 7,
  username: 'carol',
  display_name: 'Carol',
  role: 1,
  status: 1,
  email: 'carol@example.com',
  github_id: '',
  wechat_id: '',
  lark_id: '',
  oidc_id: '',
  quota: 500_000,
  used_quota: 1000,
  request_count: 3,
  group: 'default',
  aff_code: 'abcd',
}
